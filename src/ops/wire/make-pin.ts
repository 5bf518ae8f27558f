import { buildSnapshot } from '../../hooks/snapshot/snapshot.js';
import type { PluginBinding, SourceDocument } from '../../hooks/types.js';
import type { PinnedPlugin, SessionPin } from '../../store/session-pin-schema.js';
import { PIN_VERSION } from '../../store/session-pin-schema.js';
import { readState } from '../../store/state/state.js';
import type { PluginRecord, State } from '../../store/state/state-schema.js';
import type { StorePaths } from '../../store/store-paths.js';
import { loadPluginSources } from '../run/plugin-sources.js';

/**
 * A pin of the plugins that may run now (plugins.md Q4, the loader's rules: enabled, consented,
 * untampered), for one agent session: their validated documents, and the tree each must still
 * have (Q6) to run. With `cwd`, the plugins of its project (docs/guides/projects.md) too, after the user's. Never throws for plugin faults: those are the pin's diagnostics (S6, R4).
 */
export async function makePin(
  paths: StorePaths,
  sessionId: string,
  agent: string,
  now = new Date(),
  cwd?: string,
): Promise<SessionPin> {
  const [loaded, state] = await Promise.all([
    loadPluginSources(paths, {}, cwd),
    readState(paths).catch(() => null),
  ]);
  const plugins: PinnedPlugin[] = [];
  const sources: SourceDocument[] = [];
  for (const source of loaded.sources) {
    const binding = source.plugin;
    const record = binding === undefined || state === null ? undefined : recordOf(state, binding);
    // A plugin whose record moved between the two reads is left to the next pin.
    if (binding === undefined || record === undefined || record.path !== binding.root) continue;
    if (!plugins.some((p) => p.id === record.id))
      plugins.push({
        id: record.id,
        version: record.version,
        root: record.path,
        fingerprint: record.fingerprint,
        source: record.source,
      });
    sources.push(source);
  }
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
  };
}

/** The record a binding was loaded from: the user-wide one, or a project's (docs/guides/projects.md). */
function recordOf(state: State, binding: PluginBinding): PluginRecord | undefined {
  const records =
    binding.scope === 'project'
      ? Object.values(state.projects ?? {}).map((p) => p.plugins)
      : [state.plugins];
  for (const plugins of records) {
    const record = Object.hasOwn(plugins, binding.id) ? plugins[binding.id] : undefined;
    if (record?.path === binding.root) return record;
  }
  return undefined;
}
