import { diagnostic, type Diagnostic } from '../../hooks/diagnostic.js';
import type { SourceDocument } from '../../hooks/types.js';
import { compareCodeUnits } from '../../json/compare.js';
import { fingerprintTree } from '../../store/fingerprint.js';
import { pluginDataDir } from '../../store/plugin-dirs.js';
import type { StorePaths } from '../../store/store-paths.js';
import { readPluginDir } from '../../store/read-plugin.js';
import { readState } from '../../store/state/state.js';
import type { PluginRecord, State } from '../../store/state/state-schema.js';
import { hasCurrentConsent } from '../review/consent.js';
import { withoutOptedOutHooks } from './hook-opt-outs.js';

/** The plugin part of a snapshot's sources (engine.md S1, S3, S6). */
export interface PluginSources {
  sources: SourceDocument[];
  diagnostics: Diagnostic[];
}

/**
 * The documents of every installed plugin that may run (plugins.md Q4: enabled, and its consent
 * record holds its current surfaceHash), sorted by id (S3), each bound to its installed tree and
 * data directory (section 3 variables). A plugin whose tree no longer matches its fingerprint is
 * left out with `plugin_tampered` (Q6); one that cannot be read is left out with a diagnostic
 * naming it (S6); an unreadable state gives no plugins and `plugin_state_unreadable` (R4). Never
 * throws. Nothing is cached across calls: each snapshot re-reads the state and re-hashes the trees.
 */
export async function loadPluginSources(paths: StorePaths): Promise<PluginSources> {
  let state: State;
  try {
    state = await readState(paths);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    const message = `the plugin state cannot be read, so no plugin hooks are loaded (user and project hooks still are): ${why}`;
    return {
      sources: [],
      diagnostics: [
        diagnostic('plugin_state_unreadable', 'warning', message, { origin: 'plugin' }),
      ],
    };
  }
  const runnable = Object.values(state.plugins)
    .filter((p) => p.enabled && hasCurrentConsent(p))
    .sort((a, b) => compareCodeUnits(a.id, b.id));
  const loaded = await Promise.all(runnable.map((record) => loadOne(paths, record)));
  return {
    sources: loaded.flatMap((l) => l.sources),
    diagnostics: loaded.flatMap((l) => l.diagnostics),
  };
}

async function loadOne(paths: StorePaths, record: PluginRecord): Promise<PluginSources> {
  const where = { origin: 'plugin' as const, plugin: record.id };
  try {
    const found = await fingerprintTree(record.path).catch(() => null);
    if (found !== record.fingerprint) {
      const what =
        found === null
          ? 'its installed tree is missing or unreadable'
          : 'its installed files were changed after install';
      const message = `plugin ${record.id} ${record.version} is left out: ${what} (${record.path}); run \`hookpm install --force ${record.source}\` to restore it`;
      return { sources: [], diagnostics: [diagnostic('plugin_tampered', 'error', message, where)] };
    }
    const plugin = await readPluginDir(record.path, { fallbackName: record.name, id: record.id });
    const binding = { id: record.id, root: record.path, data: pluginDataDir(paths, record.id) };
    const sources: SourceDocument[] = [];
    // Per-hook opt-outs (issue 14): the one call into hook-opt-outs.ts; handlers turned off are null.
    for (const document of withoutOptedOutHooks(plugin.documents, record.disabledHooks)) {
      if (document.config !== null)
        sources.push({
          origin: 'plugin',
          file: document.source,
          config: document.config,
          plugin: binding,
        });
    }
    return { sources, diagnostics: plugin.diagnostics };
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    const message = `plugin ${record.id} ${record.version} is left out: it cannot be read: ${why}`;
    return {
      sources: [],
      diagnostics: [diagnostic('plugin_hooks_failed', 'error', message, where)],
    };
  }
}
