import { rename, rm } from 'node:fs/promises';
import semver from '../../../registry/versions/semver.js';
import { finishStage } from './staged.js';
import type { NpmSource, StageEnv, StagedPlugin, StageTarget } from './types.js';
import { stageNpmPlugin } from '../catalogs/fetch-npm.js';
import { environmentOf } from '../context/operation-context.js';

/**
 * `npm:<pkg>[@range]` (docs/reference/rules/registry.md#registry-kinds): stageNpmPlugin picks the
 * version, downloads the tarball verifying its sha512 `dist.integrity`, scans and extracts it into
 * staging; the plugin is then validated like any tarball. The id is `<manifest name>@npm`; the
 * recorded source is `npm:<pkg>@<version>` and the range the one asked for, a bare name or an
 * exact version `^<version>` (as npm saves it, and as pick.ts recordedRange does for an index).
 */
export async function stageNpm(
  source: NpmSource,
  where: StageTarget,
  env: StageEnv,
): Promise<StagedPlugin> {
  const npm = await stageNpmPlugin(source.request, {
    ...environmentOf(env.ctx),
    ...env.ctx,
    cwd: env.cwd,
  });
  let dir = npm.dir;
  try {
    if ('into' in where) {
      await rename(npm.dir, where.into);
      dir = where.into;
    }
    const resolved: NpmSource = {
      ...source,
      path: `npm:${source.request.package}@${npm.version}`,
      fallbackName: npm.name,
      range: recordedNpmRange(source.range, npm.version),
    };
    const staged = await finishStage(resolved, dir, npm.integrity);
    // The package's version is the plugin's (stageNpmPlugin refused a manifest that says otherwise).
    staged.inspected.version = npm.version;
    if (npm.deprecated !== undefined) staged.deprecated = npm.deprecated;
    return staged;
  } catch (error) {
    await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    throw error;
  }
}

/** The range (or dist-tag) asked for; `^<version>` for none or an exact version. */
function recordedNpmRange(asked: string, version: string): string {
  return asked === '' || semver.valid(asked) !== null ? `^${version}` : asked;
}
