import { rm } from 'node:fs/promises';
import { fingerprintTree } from '../store/fingerprint.js';
import { createStagingDir } from '../store/layout.js';
import type { StorePaths } from '../store/paths.js';
import { assertInstallable, inspectPluginDir, type InspectedPlugin } from './inspect-plugin.js';
import { stageSource, type InstallSource } from './install-source.js';

/** A validated copy of a plugin in staging, ready to be promoted (registry.md section 7, steps 3-4). */
export interface StagedPlugin {
  source: InstallSource;
  /** The staging directory holding the copy. */
  dir: string;
  inspected: InspectedPlugin;
  /** Q6: the files fingerprint of the copy, as it will be installed. */
  fingerprint: string;
  /**
   * What names the installed tree. A directory has no published tarball, so its integrity is its
   * files fingerprint (`sha256-` + base64 of the SHA-256 over the sorted (path, content hash, mode)
   * list): the same tree always gets the same integrity and the same versioned directory.
   */
  integrity: string;
}

/**
 * Copies the source into a fresh staging directory (or `into`, for a dry run), reads and validates
 * the copy (P4: refusing any error), and fingerprints it. On failure the staging directory is
 * removed and the error rethrown.
 */
export async function stagePlugin(
  source: InstallSource,
  where: { paths: StorePaths } | { into: string },
): Promise<StagedPlugin> {
  const dir = 'into' in where ? where.into : await createStagingDir(where.paths);
  try {
    await stageSource(source, dir);
    const inspected = await inspectPluginDir(dir, {
      fallbackName: source.fallbackName,
      registry: source.registry,
    });
    assertInstallable(inspected, source.spec);
    const fingerprint = await fingerprintTree(dir);
    return { source, dir, inspected, fingerprint, integrity: fingerprint };
  } catch (error) {
    await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    throw error;
  }
}
