import type { PluginRecord } from '../../store/state/state-schema.js';
import type { StagedPlugin } from '../install/types.js';
import { readConsentBaseline } from '../plugins/installed.js';
import { buildReview, type ReviewReport } from './report.js';

/** The review of a staged plugin against the installed one of the same id (Q3, Q5 diff). */
export async function reviewStaged(
  staged: StagedPlugin,
  existing: PluginRecord | undefined,
): Promise<ReviewReport> {
  return buildReview({
    id: staged.inspected.id,
    version: staged.inspected.version,
    plugin: staged.inspected.plugin,
    surface: staged.inspected.surface,
    source: staged.source.path,
    integrity: staged.integrity,
    ...(await readConsentBaseline(existing)),
  });
}
