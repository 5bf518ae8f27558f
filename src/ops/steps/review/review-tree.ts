import type { TreeEntry } from '../../../store/fingerprint.js';
import { readInstalledFiles } from '../../../store/installed-files.js';
import type { StorePaths } from '../../../store/store-paths.js';
import type { PluginRecord } from '../../../store/state/state-schema.js';
import type { InspectedPlugin } from '../staging/inspect.js';
import { readConsentBaseline } from './consent-baseline.js';
import { diffCode, readReviewedTree } from './code-review.js';
import { treeStatusOf } from '../../../store/tree-status.js';
import { restoreWords } from '../../../store/reinstall-command.js';
import { buildReview, type ReviewDiagnostic, type ReviewReport } from '../consent/report.js';

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
  /** An installed project plugin's project root: `hookpm ci` there restores a changed tree. */
  project?: string;
  /**
   * The store, to tell the files a plugin created in its folder from its installed ones
   * (store/installed-files.ts, docs/design/decisions.md#plugins-and-marketplaces): those are left
   * out of both trees compared.
   */
  paths?: StorePaths;
}

/**
 * The review of one plugin tree (plugins.md Q3-Q5, docs/guides/installing-plugins.md#consent): its
 * surface and files, with the surface diff and the code diff against what was consented for the
 * same id.
 */
export async function reviewTree(input: TreeReview): Promise<ReviewReport> {
  const recorded = input.recordedFingerprint;
  const installed =
    recorded === undefined || input.paths === undefined
      ? null
      : readInstalledFiles(input.paths, recorded);
  const [tree, baseline] = await Promise.all([
    readReviewedTree(input.root, input.inspected, {
      ...(input.entries === undefined ? {} : { entries: input.entries }),
      directory: input.directory === true,
      ...(installed === null ? {} : { only: installed }),
    }),
    readConsentBaseline(input.existing, input.paths),
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
  if (recorded !== undefined && (await isTampered(input, recorded, tree.fingerprint)))
    report.diagnostics.unshift(tampered(input));
  return report;
}

/**
 * The review of a plugin directory in place (`review ./dir`, `install --link`): listed as install
 * would copy it, with no integrity, against what was consented for `existing`'s id.
 */
export function reviewDirectory(
  dir: string,
  inspected: Pick<InspectedPlugin, 'id' | 'version' | 'plugin' | 'surface'>,
  existing: PluginRecord | undefined,
  paths: StorePaths,
): Promise<ReviewReport> {
  return reviewTree({
    id: inspected.id,
    version: inspected.version,
    inspected,
    root: dir,
    source: dir,
    integrity: null,
    existing,
    directory: true,
    paths,
  });
}

/**
 * Q6 as the snapshot loader judges it: with the store at hand, files the plugin created in its
 * folder are allowed unless one changes what runs (store/tree-status.ts;
 * docs/design/decisions.md#plugins-and-marketplaces).
 */
async function isTampered(input: TreeReview, recorded: string, found: string): Promise<boolean> {
  if (input.paths === undefined) return recorded !== found;
  const target = { path: input.root, fingerprint: recorded, name: input.inspected.plugin.name };
  const status = await treeStatusOf(input.paths, target);
  return status.status !== 'match' && status.status !== 'created';
}

/** Q6: the installed files no longer match the fingerprint recorded at install. */
function tampered({ id, root, source, project }: TreeReview): ReviewDiagnostic {
  return {
    severity: 'error',
    code: 'plugin_tampered',
    message: `the installed files of ${id} at ${root} changed after install; its hooks are left out of snapshots until ${restoreWords(source, project)} restores them`,
    path: null,
  };
}
