import type { StorePaths } from '../../../store/store-paths.js';
import type { PluginRecord } from '../../../store/state/state-schema.js';
import type { ReviewReport } from '../consent/report.js';
import { inspectPluginDir } from '../staging/inspect.js';
import { reviewTree } from './review-tree.js';

/**
 * The review of one installed tree of `record` (its active one or its pending update). A linked
 * plugin's tree is its directory, read in place, which the tamper check does not apply to
 * (plugins.md D15): its edits are the point, so they are no `plugin_tampered` diagnostic.
 * `project`: the root of the project whose plugin it is (its tree is restored by `hookpm ci`).
 */
export async function reviewInstalledTree(
  record: PluginRecord,
  target: Pick<PluginRecord, 'path' | 'version' | 'source' | 'integrity' | 'fingerprint'>,
  paths: StorePaths,
  project: string | null = null,
): Promise<ReviewReport> {
  const inspected = await inspectPluginDir(target.path, {
    fallbackName: record.name,
    registry: record.registry,
  });
  return reviewTree({
    id: record.id,
    version: target.version,
    inspected,
    root: target.path,
    source: target.source,
    integrity: target.integrity,
    existing: record,
    // A pending update is a copy in the store, held to Q6 even beside a linked directory.
    ...(record.linked === true && target === record
      ? {}
      : { recordedFingerprint: target.fingerprint }),
    ...(project === null ? {} : { project }),
    paths,
  });
}
