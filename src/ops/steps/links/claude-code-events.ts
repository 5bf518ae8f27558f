import { CLAUDE_CODE_EVENT_NAMES, type ClaudeCodeEventName } from '../../../hooks/events.js';
import type { SourceDocument } from '../../../hooks/types.js';
import { runnablePlugins } from '../../../store/runnable-plugins.js';
import type { StorePaths } from '../../../store/store-paths.js';
import { canonicalProjectRoot } from '../../../workspace/canonical-root.js';

/**
 * plugins.md C1: the events of Claude Code's own that `hookpm link claude` links besides the
 * twelve: those a plugin that may run now hooks with a valid group (the user's plugins; with
 * `project`, the project's of `cwd` too), in table order. Linking only these keeps Claude Code from
 * starting hookpm on events no plugin wants (FileChanged and MessageDisplay fire often).
 */
export async function hookedClaudeCodeEvents(
  store: StorePaths,
  scope: { project: boolean; cwd: string },
): Promise<ClaudeCodeEventName[]> {
  const loaded = await runnablePlugins(store, {
    ...(scope.project ? { projectKey: () => canonicalProjectRoot(scope.cwd) } : {}),
  });
  return claudeCodeEventsOf(loaded.sources);
}

/** The Claude Code events with a valid group in `sources`, in table order. */
export function claudeCodeEventsOf(sources: readonly SourceDocument[]): ClaudeCodeEventName[] {
  return CLAUDE_CODE_EVENT_NAMES.filter((event) =>
    sources.some((source) => (source.config[event] ?? []).some((group) => group !== null)),
  );
}
