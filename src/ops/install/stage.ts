import { rm } from 'node:fs/promises';
import { syncTree } from '../../io/sync-tree.js';
import { toStoreError } from '../../io/fs-error.js';
import { copyPluginTree } from '../../store/copy-tree.js';
import { fingerprintOf, fingerprintTree, type TreeEntry } from '../../store/fingerprint.js';
import { createStagingDir } from '../../store/layout.js';
import type { StorePaths } from '../../store/store-paths.js';
import { assertInstallable, inspectPluginDir, type InspectedPlugin } from './inspect.js';
import type { InstallSource } from './source.js';
import { checkAgainstIndex, requireManifest } from './staged.js';
import type { PluginContext } from '../plugin-context.js';
import { fetchAndExtract } from './stage-tarball.js';

/** A validated copy of a plugin in staging, ready to be promoted (registry.md section 7, steps 2-4). */
export interface StagedPlugin {
  /** The source, with `path` and `range` final (an npm source knows its version only now). */
  source: InstallSource;
  /** The staging directory holding the copy. */
  dir: string;
  inspected: InspectedPlugin;
  /** Q6: the files fingerprint of the copy, as it will be installed. */
  fingerprint: string;
  /**
   * What names the installed tree: the sha512 SRI of the tarball it came from (verified), or, for
   * a directory, which has no published tarball, its files fingerprint (`sha256-` + base64 of the
   * SHA-256 over the sorted (path, content hash, mode) list): the same tree always gets the same
   * integrity and the same versioned directory.
   */
  integrity: string;
}

/** What staging needs besides the source: the store, the network settings, progress. */
export interface StageEnv {
  ctx: PluginContext;
  /** D5: only the tarball cache (and local files). */
  offline: boolean;
  cwd: string;
}

/**
 * Steps 2-4 of the install transaction: materialises the source into a fresh staging directory
 * (or `into`, which must not exist yet, for a dry run) - a copy of a directory, or a verified
 * tarball scanned whole and then extracted - reads and validates it (P4; a tarball needs a
 * manifest; a registry tarball must match its index entry, I3), and fingerprints it. On failure
 * the directory is removed and the error rethrown.
 */
export async function stagePlugin(
  source: InstallSource,
  where: { paths: StorePaths } | { into: string },
  env: StageEnv,
): Promise<StagedPlugin> {
  // Loaded only when used: a registry or directory install does not pay for git and npm code.
  if (source.kind === 'npm') return (await import('./stage-npm.js')).stageNpm(source, where, env);
  if (source.kind === 'marketplace')
    return (await import('./stage-marketplace.js')).stageMarketplace(source, where, env);
  const dir = 'into' in where ? where.into : await createStagingDir(where.paths);
  try {
    if (source.kind === 'directory') {
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

/**
 * Validates the tree in `dir` (the caller removes it on failure) and fingerprints it: from `files`,
 * the entries of the files an extraction just wrote there, else by reading the tree. Meanwhile the
 * tree is flushed to disk (D4: promoteTree names only a tree that is complete on disk, so after a
 * power loss the state never names a tree whose files are empty); a validation error wins over a
 * flush error.
 */
export async function finishStage(
  source: InstallSource,
  dir: string,
  integrity: string | null,
  files?: readonly TreeEntry[],
): Promise<StagedPlugin> {
  const flushing = syncTree(dir).catch((error: unknown) => {
    throw toStoreError(error, dir, 'flush the staged tree');
  });
  flushing.catch(() => undefined);
  const inspected = await inspectPluginDir(dir, {
    fallbackName: source.fallbackName,
    registry: source.registry,
  });
  // A directory, and a marketplace plugin (its entry names it), need no manifest (P1).
  if (source.kind !== 'directory' && source.kind !== 'marketplace')
    requireManifest(inspected, source.spec);
  assertInstallable(inspected, source.spec);
  if (source.kind === 'registry') checkAgainstIndex(inspected, source);
  const fingerprint = files === undefined ? await fingerprintTree(dir) : fingerprintOf(files);
  await flushing;
  return { source, dir, inspected, fingerprint, integrity: integrity ?? fingerprint };
}
