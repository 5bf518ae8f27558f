import { rm } from 'node:fs/promises';
import { copyPluginTree } from '../../../store/copy-tree.js';
import { measureTree } from '../../../store/tree-size.js';
import { createStagingDir } from '../../../store/layout.js';
import { fetchAndExtract, type TarballSource } from './stage-tarball.js';
import { finishStage } from './staged.js';
import type {
  DirectorySource,
  InstallSource,
  StageEnv,
  StagedPlugin,
  StageTarget,
} from './types.js';

/** How one kind of source is staged (steps 2-4); on failure it removes what it staged. */
type Stager<S extends InstallSource> = (
  source: S,
  where: StageTarget,
  env: StageEnv,
) => Promise<StagedPlugin>;

/**
 * One stager per kind of source. The npm and marketplace ones are loaded only when used: a
 * registry or directory install does not pay for git and npm code.
 */
const STAGERS: { [K in InstallSource['kind']]: Stager<Extract<InstallSource, { kind: K }>> } = {
  directory: stageTree,
  'tarball-file': stageTree,
  'tarball-url': stageTree,
  registry: stageTree,
  npm: async (source, where, env) => (await import('./stage-npm.js')).stageNpm(source, where, env),
  marketplace: async (source, where, env) =>
    (await import('./stage-marketplace.js')).stageMarketplace(source, where, env),
};

/**
 * Steps 2-4 of the install transaction: materialises the source into a fresh staging directory
 * (or `into`, which must not exist yet, for a dry run) - a copy of a directory, or a verified
 * tarball scanned whole and then extracted - reads and validates it (P4; a tarball needs a
 * manifest; a registry tarball must match its index entry, I3), and fingerprints it. On failure
 * the directory is removed and the error rethrown.
 */
export async function stagePlugin(
  source: InstallSource,
  where: StageTarget,
  env: StageEnv,
): Promise<StagedPlugin> {
  const stage = STAGERS[source.kind] as Stager<InstallSource>;
  return stage(source, where, env);
}

/** A directory copied, or a tarball fetched and extracted, into staging; then finishStage. */
async function stageTree(
  source: DirectorySource | TarballSource,
  where: StageTarget,
  env: StageEnv,
): Promise<StagedPlugin> {
  const dir = 'into' in where ? where.into : await createStagingDir(where.paths);
  try {
    if (source.kind === 'directory') {
      // registry.md A2's limits, as for `install --link` and a marketplace's tree: a directory
      // over one is E_ARCHIVE_TOO_LARGE before a byte of it is copied into the store.
      await measureTree(source.path, source.spec);
      await copyPluginTree(source.path, dir);
      return await finishStage(source, dir, null);
    }
    const extracted = await fetchAndExtract(source, dir, env);
    return await finishStage(source, dir, extracted.integrity, extracted.files);
  } catch (error) {
    await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    throw error;
  }
}
