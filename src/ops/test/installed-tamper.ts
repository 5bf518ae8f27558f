import type { Diagnostic } from '../../hooks/diagnostic.js';
import type { PluginRecord } from '../../store/state/state-schema.js';
import type { StorePaths } from '../../store/store-paths.js';
import { tamperedDiagnostic } from '../../store/tampered.js';
import { treeStatusOf } from '../../store/tree-status.js';

/**
 * plugins.md Q6 for `hookpm test` of an installed plugin: the `plugin_tampered` error a snapshot
 * would leave it out with (its installed files changed, or a file created in its folder that
 * changes what runs, or its tree gone), else null. A linked plugin is read in place and never
 * tampered (D15).
 */
export async function installedTamper(
  paths: StorePaths,
  record: PluginRecord,
  id: string,
): Promise<Diagnostic | null> {
  if (record.linked === true) return null;
  const status = await treeStatusOf(paths, {
    path: record.path,
    fingerprint: record.fingerprint,
    name: record.name,
  });
  if (status.status === 'match' || status.status === 'created') return null;
  const plugin = { id, version: record.version, path: record.path, source: record.source };
  const problem = status.status === 'changed' ? status.problem : undefined;
  return tamperedDiagnostic(plugin, status.status === 'missing', problem);
}
