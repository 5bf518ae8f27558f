import { rm } from 'node:fs/promises';
import { isHookpmError } from '../../errors.js';
import { isTarballPath } from '../../registry/versions/parse-spec.js';
import { createStagingDir } from '../../store/layout.js';
import { readState } from '../../store/state/state.js';
import { inspectPluginDir } from '../steps/staging/inspect.js';
import { isPathSpec } from '../steps/staging/source.js';
import type { InstallSource } from '../steps/staging/types.js';
import { findInstalled } from '../steps/installed/installed.js';
import { stateIn, USER_RECORDS, type RecordScope } from '../steps/installed/project-records.js';
import { environmentOf, type OperationContext } from '../steps/context/operation-context.js';
import { reviewPlugin } from './review.js';
import type { ReviewReport } from '../steps/consent/report.js';
import { reviewTree } from '../steps/review/review-tree.js';
import { resolveInstallSources } from '../steps/staging/resolve.js';
import { stageMarketplaceTree } from '../steps/staging/stage-marketplace.js';
import { stageNpmPlugin } from '../steps/catalogs/fetch-npm.js';
import { fetchAndExtract } from '../steps/staging/stage-tarball.js';
import { openProject } from '../steps/transaction/project-scope.js';
import { assertProjectTarballs } from '../steps/transaction/project-registries.js';

export interface ReviewSourceOptions {
  target: string;
  cwd: string;
  includePrerelease: boolean;
  /** `review --project`: the project's records stand for the installed plugins. */
  scope?: RecordScope;
}

/**
 * `hookpm review <spec>` for every kind cli.md names: an installed plugin or a directory
 * (review.ts), else an install spec - a registry plugin (`guard`, `guard@examples@^1`), a tarball
 * file or URL, `npm:pkg` - whose tarball is fetched (verified, into the cache, D5), scanned and
 * extracted into a staging directory that is removed afterwards. The state is not changed.
 */
export async function reviewAny(
  ctx: OperationContext,
  opts: ReviewSourceOptions,
): Promise<ReviewReport> {
  const tarballPath = isPathSpec(opts.target) && isTarballPath(opts.target);
  if (isPathSpec(opts.target) && !tarballPath) return reviewPlugin(ctx.paths, opts);
  const state = stateIn(await readState(ctx.paths), opts.scope ?? USER_RECORDS);
  // `npm:<pkg>` is reviewed as published, never as the plugin installed from it.
  if (!tarballPath && !opts.target.startsWith('npm:')) {
    try {
      findInstalled(state, opts.target);
      return await reviewPlugin(ctx.paths, opts);
    } catch (error) {
      if (!isHookpmError(error, 'E_NOT_INSTALLED')) throw error;
    }
  }
  // D13: a plugin the project has not installed is looked for as `install --project` would, in
  // hookpm.json's registries too (J3: those checked, and a tarball of one on disk kept inside it).
  const project = opts.scope?.kind === 'project' ? await openProject(ctx, opts.cwd) : null;
  const from = project?.ctx ?? ctx;
  const { sources } = await resolveInstallSources(from, [opts.target], opts);
  if (project !== null) assertProjectTarballs(project.root, project.registries, sources);
  const source = sources[0] as InstallSource;
  const { dir, integrity, version } = await materialise(from, source, opts);
  try {
    const inspected = await inspectPluginDir(dir, {
      fallbackName: source.fallbackName,
      registry: source.registry,
    });
    return await reviewTree({
      id: inspected.id,
      version: version ?? inspected.version,
      inspected,
      root: dir,
      source: source.path,
      integrity,
      existing: state.plugins[inspected.id],
      paths: ctx.paths,
    });
  } finally {
    await rm(dir, { recursive: true, force: true }).catch(() => undefined);
  }
}

async function materialise(
  ctx: OperationContext,
  source: InstallSource,
  opts: ReviewSourceOptions,
): Promise<{ dir: string; integrity: string | null; version: string | null }> {
  if (source.kind === 'npm') {
    const npm = await stageNpmPlugin(source.request, {
      ...environmentOf(ctx),
      ...ctx,
      cwd: opts.cwd,
    });
    return { dir: npm.dir, integrity: npm.integrity, version: npm.version };
  }
  if (source.kind === 'marketplace') {
    const tree = await stageMarketplaceTree(source, {
      ...environmentOf(ctx),
      ...ctx,
      cwd: opts.cwd,
    });
    return { dir: tree.dir, integrity: tree.integrity, version: tree.version };
  }
  if (source.kind === 'directory')
    throw new Error('Assertion failed: directories are reviewed in place');
  const dir = await createStagingDir(ctx.paths);
  try {
    const { integrity } = await fetchAndExtract(source, dir, { ctx, cwd: opts.cwd });
    return { dir, integrity, version: null };
  } catch (error) {
    await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    throw error;
  }
}
