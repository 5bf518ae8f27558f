import { createHash } from 'node:crypto';
import { mkdirSync, renameSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { HookpmError } from '../errors.js';
import { errnoCode, toStoreError } from '../io/fs-error.js';
import { trackTemporary } from '../io/interrupt-cleanup.js';
import { uniqueHex } from '../io/unique-hex.js';
import { stagingRoot } from './paths.js';
import { pluginVersionsDir } from './plugin-dirs.js';
import type { StorePaths } from './store-paths.js';
import { sameTree } from './same-tree.js';
import { isLinkedDir, makeOwnDir } from './own-dir.js';
import { syncPath } from '../io/sync-tree.js';

/** What names one installed tree. */
export interface TreeKey {
  id: string;
  version: string;
  /** SRI string; its sha512 entry names the tree. */
  integrity: string;
}

const VERSION_SEGMENT = /^[0-9A-Za-z][0-9A-Za-z.+_-]*$/;

/**
 * D4: `<version>-<first 12 hex of the integrity's sha512>`. An integrity without a sha512 entry is
 * named by the SHA-256 of its text instead. The version must be a safe path segment (it is semver
 * by then; anything else is a bug upstream).
 */
function installDirName(version: string, integrity: string): string {
  if (!VERSION_SEGMENT.test(version))
    throw new Error(`Assertion failed: unsafe version segment ${JSON.stringify(version)}`);
  return `${version}-${integrityHex(integrity).slice(0, 12)}`;
}

/** D4: the versioned directory a tree with this key is promoted to. */
export function installDir(paths: StorePaths, key: TreeKey): string {
  return join(pluginVersionsDir(paths, key.id), installDirName(key.version, key.integrity));
}

function integrityHex(integrity: string): string {
  for (const entry of integrity.trim().split(/\s+/)) {
    const match = /^sha512-([A-Za-z0-9+/=_-]+)/.exec(entry);
    const hex = match?.[1] === undefined ? '' : Buffer.from(match[1], 'base64').toString('hex');
    if (hex.length >= 12) return hex;
  }
  return createHash('sha256').update(integrity, 'utf8').digest('hex');
}

/**
 * A3: a fresh, empty staging directory under `<data>/.staging/` (same file system as the trees, so
 * promotion is a rename). Staging belongs to the lock holder: collectGarbage empties it.
 */
export async function createStagingDir(paths: StorePaths): Promise<string> {
  const dir = join(stagingRoot(paths), `stage-${process.pid}-${uniqueHex(6)}`);
  try {
    makeOwnDir(stagingRoot(paths));
    // An interrupted command removes it (a promoted tree was renamed away: nothing to remove).
    trackTemporary(dir);
    mkdirSync(dir, { mode: 0o755 });
  } catch (error) {
    throw toStoreError(error, dir, 'create the staging directory');
  }
  return dir;
}

/**
 * D4: moves the validated tree `staging`, already flushed to disk (ops/steps/staging/staged.ts
 * finishStage), to `target` by rename (then flushes the parent directory), and returns where it
 * now lives.
 * When `target` already exists with the same content, the existing tree is kept (and staging
 * removed); when it exists with other content (a tampered or half-collected tree), the tree goes to
 * `<target>-r2`, `-r3`, ... instead, so no tree that the state may name is ever changed in place.
 */
export async function promoteTree(staging: string, target: string): Promise<string> {
  try {
    // The plugins root, then the plugin's directory.
    refuseLinkedPluginDir(dirname(dirname(target)));
    refuseLinkedPluginDir(dirname(target));
    mkdirSync(dirname(target), { recursive: true });
    for (let attempt = 1; attempt <= 100; attempt += 1) {
      const candidate = attempt === 1 ? target : `${target}-r${attempt}`;
      try {
        renameSync(staging, candidate);
        await syncPath(dirname(candidate));
        return candidate;
      } catch (error) {
        const code = errnoCode(error);
        if (code !== 'EEXIST' && code !== 'ENOTEMPTY') throw error;
      }
      if (await sameTree(staging, candidate)) {
        await rm(staging, { recursive: true, force: true });
        return candidate;
      }
    }
  } catch (error) {
    throw toStoreError(error, target, 'install the tree at');
  }
  throw new Error(`Assertion failed: 100 different trees already exist at ${target}`);
}

/**
 * D4: a plugin directory (or the plugins root) that is a symlink is none hookpm made, and no tree
 * is installed through it (out of the store): E_IO naming it, before anything is moved.
 */
function refuseLinkedPluginDir(dir: string): void {
  if (!isLinkedDir(dir)) return;
  throw new HookpmError(
    'E_IO',
    `cannot install a tree in ${dir}: it is a symlink, not a directory`,
    {
      file: dir,
      hint: `Remove the symlink ${dir}, then install the plugins whose trees it held again with \`hookpm install <name> --force\`.`,
    },
  );
}
