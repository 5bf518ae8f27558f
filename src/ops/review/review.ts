import { basename, resolve } from 'node:path';
import { LOCAL_REGISTRY } from '../../registry/registry-name.js';
import type { StorePaths } from '../../store/store-paths.js';
import { readState } from '../../store/state/state.js';
import { inspectPluginDir } from '../steps/staging/inspect.js';
import { isPathSpec } from '../steps/staging/source.js';
import { findInstalled } from '../steps/installed/installed.js';
import { stateIn, USER_RECORDS, type RecordScope } from '../steps/installed/project-records.js';
import type { ReviewReport } from '../steps/consent/report.js';
import { reviewDirectory } from '../steps/review/review-tree.js';
import { reviewInstalledTree } from '../steps/review/review-installed.js';
import { measureTree } from '../../store/tree-size.js';

/**
 * `hookpm review <name|dir>` (plugins.md Q3, docs/reference/rules/cli.md#json-shapes): the consent
 * surface of an installed plugin (its pending update's, if one waits) or of a plugin directory,
 * with the diff against the surface consented to for the same id. Never throws for what a plugin
 * contains: its problems are the report's diagnostics (ok: false when install would refuse it, P4),
 * but for a directory over a tree limit, whose files are not read.
 * `scope`: a project's records (`review --project`): its plugin, and the consent given there.
 */
export async function reviewPlugin(
  paths: StorePaths,
  opts: { target: string; cwd: string; scope?: RecordScope },
): Promise<ReviewReport> {
  const state = stateIn(await readState(paths), opts.scope ?? USER_RECORDS);
  if (isPathSpec(opts.target)) {
    const dir = resolve(opts.cwd, opts.target);
    const inspected = await inspectPluginDir(dir, {
      fallbackName: basename(dir),
      registry: LOCAL_REGISTRY,
    });
    // As `install --link` (plugins.md D15): a directory over a tree limit is E_ARCHIVE_TOO_LARGE
    // before its files are read, so a 1 GB (or a sparse 1 TB) file is never hashed.
    await measureTree(dir, opts.target);
    return reviewDirectory(dir, inspected, state.plugins[inspected.id], paths);
  }
  const record = findInstalled(state, opts.target);
  const target = record.pending ?? record;
  const project = opts.scope?.kind === 'project' ? opts.scope.root : null;
  return reviewInstalledTree(record, target, paths, project);
}
