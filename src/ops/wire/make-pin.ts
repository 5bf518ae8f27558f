import { buildSnapshot } from '../../hooks/snapshot/snapshot.js';
import { PIN_VERSION, pinnedPluginOf, type SessionPin } from '../../store/session-pin-schema.js';
import { runnablePlugins } from '../../store/runnable-plugins.js';
import type { StorePaths } from '../../store/store-paths.js';
import { canonicalProjectRoot } from '../../workspace/canonical-root.js';
import { findProjectRoot } from '../../workspace/find-project-root.js';

/**
 * A pin of the plugins that may run now (plugins.md Q4, the loader's rules: enabled, consented,
 * untampered), for one agent session: their validated documents, and the tree each must still have
 * (Q6) to run. With `cwd`, the plugins of its project (docs/guides/projects.md) too, after the
 * user's. Never throws for plugin faults: those are the pin's diagnostics (S6, R4), and the
 * enabled plugins that cannot run as consented, or a state that cannot be read, its `failClosed`
 * (docs/reference/rules/engine.md#fail-closed).
 */
export async function makePin(
  paths: StorePaths,
  sessionId: string,
  agent: string,
  now = new Date(),
  cwd?: string,
): Promise<SessionPin> {
  const loaded = await runnablePlugins(paths, {
    ...(cwd === undefined ? {} : { projectKey: () => canonicalProjectRoot(cwd) }),
  });
  // Each pinned with the record its documents were read under: one read of the state.
  const pinned = loaded.plugins.filter((p) => p.sources.length > 0);
  const plugins = pinned.map(({ record, project }) => pinnedPluginOf(record, project));
  const sources = pinned.flatMap((p) => p.sources);
  return {
    version: PIN_VERSION,
    sessionId,
    agent,
    pinnedAt: now.toISOString(),
    snapshotId: buildSnapshot({ projectDir: '', sources }).id,
    plugins,
    sources,
    diagnostics: loaded.diagnostics,
    stopContinuations: 0,
    ...(cwd === undefined ? {} : { projectRoot: await findProjectRoot(cwd) }),
    ...(loaded.failClosed.length === 0 ? {} : { failClosed: loaded.failClosed }),
  };
}
