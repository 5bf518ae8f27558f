import type { TreeEntry } from '../../store/fingerprint.js';
import type { PluginRecord } from '../../store/state/state-schema.js';
import type { InspectedPlugin } from '../install/inspect.js';
import { readConsentBaseline } from '../plugins/installed.js';
import { diffCode, readReviewedTree } from './code-review.js';
import { buildReview, type ReviewDiagnostic, type ReviewReport } from './report.js';

export interface TreeReview {
  id: string;
  version: string;
  inspected: Pick<InspectedPlugin, 'plugin' | 'surface'>;
  /** The tree reviewed: installed, staged, or a plugin directory. */
  root: string;
  source: string;
  integrity: string | null;
  /** The installed plugin of the same id, if any: what the review compares against. */
  existing: PluginRecord | undefined;
  /** The tree's entries when already listed (an extraction lists what it wrote). */
  entries?: readonly TreeEntry[];
  /** A plugin directory reviewed in place (listed as install would copy it). */
  directory?: boolean;
  /** An installed tree's fingerprint recorded at install: a tree that differs is reported (Q6). */
  recordedFingerprint?: string;
}

/**
 * The review of one plugin tree (plugins.md Q3-Q5, README "The consent model"): its surface and
 * files, with the surface diff and the code diff against what was consented for the same id.
 */
export async function reviewTree(input: TreeReview): Promise<ReviewReport> {
  const [tree, baseline] = await Promise.all([
    readReviewedTree(input.root, input.inspected, {
      ...(input.entries === undefined ? {} : { entries: input.entries }),
      directory: input.directory === true,
    }),
    readConsentBaseline(input.existing),
  ]);
  const { consentedTree, ...compared } = baseline;
  const report = buildReview({
    id: input.id,
    version: input.version,
    plugin: input.inspected.plugin,
    surface: input.inspected.surface,
    source: input.source,
    integrity: input.integrity,
    ...compared,
    files: tree.files,
    codeDiff: await diffCode(consentedTree, tree),
  });
  const recorded = input.recordedFingerprint;
  if (recorded !== undefined && recorded !== tree.fingerprint)
    report.diagnostics.unshift(tampered(input.id, input.root, input.source));
  return report;
}

/** Q6: the installed files no longer match the fingerprint recorded at install. */
function tampered(id: string, root: string, source: string): ReviewDiagnostic {
  return {
    severity: 'error',
    code: 'plugin_tampered',
    message: `the installed files of ${id} at ${root} changed after install; its hooks are left out of snapshots until \`hookpm install --force ${source}\` restores them`,
    path: null,
  };
}
