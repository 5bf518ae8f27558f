import type { StorePaths } from '../../../store/store-paths.js';
import type { PluginRecord } from '../../../store/state/state-schema.js';
import type { StagedPlugin } from '../staging/types.js';
import type { ReviewReport } from '../consent/report.js';
import { reviewTree } from './review-tree.js';

/**
 * The review of a staged plugin against the installed one of the same id (Q3, Q5 diff); `root` is
 * where its tree is now (its installed directory once promoted); `paths` tells the files the
 * installed plugin created in its folder from its own
 * (docs/design/decisions.md#plugins-and-marketplaces).
 */
export async function reviewStaged(
  staged: StagedPlugin,
  existing: PluginRecord | undefined,
  paths: StorePaths,
  root = staged.dir,
): Promise<ReviewReport> {
  return reviewTree({
    id: staged.inspected.id,
    version: staged.inspected.version,
    inspected: staged.inspected,
    root,
    source: staged.source.path,
    integrity: staged.integrity,
    existing,
    paths,
    ...(staged.files === undefined ? {} : { entries: staged.files }),
  });
}
