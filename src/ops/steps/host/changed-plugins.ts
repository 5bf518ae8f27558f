import type { FailClosed } from '../../../hooks/fail-closed-entry.js';
import type { Diagnostic } from '../../../hooks/diagnostic.js';
import type { SourceDocument } from '../../../hooks/types.js';
import type { PinnedPlugin } from '../../../store/session-pin-schema.js';
import type { TreeCheck } from '../../../store/tree-check.js';
import { failingPlugin } from '../../../store/fail-closed-plugin.js';
import { tamperedDiagnostic } from '../../../store/tampered.js';

/** The plugins a tree check leaves out, and what each says. */
export interface ChangedPlugins {
  ids: Set<string>;
  /** One `plugin_tampered` per plugin left out. */
  diagnostics: Diagnostic[];
  /** One entry per plugin left out, on every event: the caller checked only those about to run. */
  failClosed: FailClosed[];
}

/**
 * plugins.md Q6 for plugins whose documents were read before (a linked agent's pin, a session's
 * snapshot): of `plugins`, those whose tree in `found` (checkInstalledTrees) changed or went are
 * left out, each with `plugin_tampered` and a fail-closed entry naming the fix
 * (docs/reference/rules/engine.md#fail-closed). Files the plugin created in its folder since are
 * allowed unless they would change what its `documents` run
 * (docs/design/decisions.md#plugins-and-marketplaces).
 */
export async function changedPlugins(
  plugins: readonly PinnedPlugin[],
  found: ReadonlyMap<string, TreeCheck>,
  documents: (id: string) => readonly SourceDocument[],
): Promise<ChangedPlugins> {
  const out: ChangedPlugins = { ids: new Set(), diagnostics: [], failClosed: [] };
  for (const plugin of plugins) {
    const now = found.get(plugin.root);
    const problem =
      now?.status === 'created' ? await createdProblem(now.created, documents(plugin.id)) : null;
    if (now?.status === 'match' || (now?.status === 'created' && problem === null)) continue;
    out.ids.add(plugin.id);
    const tampered = { ...plugin, path: plugin.root };
    const missing = problem === null && now?.status !== 'changed';
    out.diagnostics.push(
      problem === null
        ? tamperedDiagnostic(tampered, missing)
        : tamperedDiagnostic(tampered, false, problem),
    );
    const why = missing
      ? 'its installed tree is missing or unreadable'
      : (problem ?? 'its installed files were changed after install');
    out.failClosed.push(failingPlugin(plugin, null, why));
  }
  return out;
}

/** Whether a file created in the folder changes what the plugin's documents run. */
async function createdProblem(
  created: string[],
  own: readonly SourceDocument[],
): Promise<string | null> {
  const { createdFileProblem, handlerTextOfConfigs } =
    await import('../../../plugin/created-files.js');
  return createdFileProblem({
    created,
    read: own.map((s) => s.file),
    handlerText: handlerTextOfConfigs(own.map((s) => s.config)),
  });
}
