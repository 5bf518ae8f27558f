import { mkdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { toStoreError } from '../io/fs-error.js';
import { isLinkedDir } from './own-dir.js';
import { pluginDataRoot } from './paths.js';
import { pluginDataDir } from './plugin-dirs.js';
import type { StorePaths } from './store-paths.js';

/**
 * plugins.md V3: creates (if needed) and returns the plugin's persistent data directory. Called when
 * the plugin is enabled; the directory survives updates and disable.
 */
export async function ensureDataDir(paths: StorePaths, id: string): Promise<string> {
  const dir = pluginDataDir(paths, id);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw toStoreError(error, dir, 'create the data directory');
  }
  return dir;
}

/**
 * V3: deletes the plugin's data directory (uninstall without `--keep-data`); absent is fine.
 * Returns false, deleting nothing, when the data root is a symlink (own-dir.ts): that is no folder
 * hookpm made, and deleting through it would delete wherever the link leads, outside the store.
 */
export async function removeDataDir(paths: StorePaths, id: string): Promise<boolean> {
  if (isLinkedDir(pluginDataRoot(paths))) return false;
  const dir = pluginDataDir(paths, id);
  try {
    await rm(dir, { recursive: true, force: true });
  } catch (error) {
    throw toStoreError(error, dir, 'remove the data directory');
  }
  return true;
}
