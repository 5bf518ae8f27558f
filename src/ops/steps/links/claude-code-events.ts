import {
  CLAUDE_CODE_EVENT_NAMES,
  EVENTS,
  HOOK_EVENT_NAMES,
  type ClaudeCodeEventName,
  type HookEventName,
} from '../../../hooks/events.js';
import type { SourceDocument } from '../../../hooks/types.js';
import { runnablePlugins } from '../../../store/runnable-plugins.js';
import type { StorePaths } from '../../../store/store-paths.js';
import { canonicalProjectRoot } from '../../../workspace/canonical-root.js';

/**
 * plugins.md G1: the events of Claude Code's own that `hookpm link claude` links besides the
 * twelve: those a plugin that may run now hooks with a valid group (the user's plugins; with
 * `project`, the project's of `cwd` too), in table order. Linking only these keeps Claude Code from
 * starting hookpm on events no plugin wants (FileChanged and MessageDisplay fire often).
 */
export async function claudeLinkPlan(
  store: StorePaths,
  scope: { project: boolean; cwd: string },
): Promise<ClaudeLinkPlan> {
  const loaded = await runnablePlugins(store, {
    ...(scope.project ? { projectKey: () => canonicalProjectRoot(scope.cwd) } : {}),
  });
  return { events: claudeCodeEventsOf(loaded.sources), background: backgroundOf(loaded.sources) };
}

export interface ClaudeLinkPlan {
  /** Claude Code's own events that get a (foreground) link entry, in table order. */
  events: ClaudeCodeEventName[];
  /** plugins.md G3: the events that get a background link entry, in table order. */
  background: BackgroundEvent[];
}

/** An event with background handlers: whether one wakes the model, and the longest timeout. */
export interface BackgroundEvent {
  event: HookEventName;
  rewake: boolean;
  timeoutSec: number;
}

/**
 * plugins.md G3: the events (engine or Claude Code's) where a plugin that may run declares a
 * background handler; `timeoutSec` is the longest of their timeouts (each its own, else the
 * event's default), so Claude Code gives the background entry as long as its longest handler.
 */
export function backgroundOf(sources: readonly SourceDocument[]): BackgroundEvent[] {
  const out: BackgroundEvent[] = [];
  for (const event of HOOK_EVENT_NAMES) {
    const handlers = sources.flatMap((source) =>
      (source.config[event] ?? []).flatMap((group) =>
        group === null ? [] : group.hooks.filter((h) => h?.background !== undefined),
      ),
    );
    if (handlers.length === 0) continue;
    out.push({
      event,
      rewake: handlers.some((h) => h?.background?.rewake === true),
      timeoutSec: Math.max(...handlers.map((h) => h?.timeout ?? EVENTS[event].defaultTimeoutSec)),
    });
  }
  return out;
}

/** The Claude Code events with a valid group in `sources`, in table order. */
export function claudeCodeEventsOf(sources: readonly SourceDocument[]): ClaudeCodeEventName[] {
  return CLAUDE_CODE_EVENT_NAMES.filter((event) =>
    sources.some((source) => (source.config[event] ?? []).some((group) => group !== null)),
  );
}
