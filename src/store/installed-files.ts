import { join } from 'node:path';
import { writeFileDurable } from '../io/durable-write.js';
import { toStoreError } from '../io/fs-error.js';
import { readRegularText } from '../io/read-regular-file.js';
import type { TreeEntry } from './fingerprint.js';
import type { StorePaths } from './store-paths.js';
import { makeOwnDir } from './own-dir.js';

/**
 * The paths of the files an installed tree held when it was fingerprinted (plugins.md Q6), kept in
 * `<data>/installed-files/<fingerprint as hex>.json` beside the state, outside every tree, so that
 * files a plugin creates in its own folder later can be told from the installed ones
 * (docs/design/decisions.md#plugins-and-marketplaces). The list needs no trust: a tree passes only
 * when the installed files it names hash, with their current content and modes, to the fingerprint
 * the state records, so a list with a path left out or added never lets a changed tree through.
 */
export function installedFilesFile(paths: StorePaths, fingerprint: string): string {
  return join(installedFilesDir(paths), installedFilesName(fingerprint));
}

/** The name of installedFilesFile in installedFilesDir. */
export function installedFilesName(fingerprint: string): string {
  return `${Buffer.from(fingerprint.replace(/^sha256-/, ''), 'base64').toString('hex')}.json`;
}

/** `<data>/installed-files/`; collect.ts removes the lists no plugin names. */
export function installedFilesDir(paths: StorePaths): string {
  return join(paths.data, 'installed-files');
}

/** Writes the list of `entries`' paths for `fingerprint` (durably; the caller holds the lock). */
export async function writeInstalledFiles(
  paths: StorePaths,
  fingerprint: string,
  entries: readonly TreeEntry[],
): Promise<void> {
  const file = installedFilesFile(paths, fingerprint);
  const list = entries.map((entry) => entry[0]).sort();
  try {
    makeOwnDir(installedFilesDir(paths));
    await writeFileDurable(file, `${JSON.stringify(list)}\n`);
  } catch (error) {
    throw toStoreError(error, file, 'write');
  }
}

/** A list larger than this is not read (a plugin has at most a few thousand files). */
const LIST_MAX_BYTES = 64 * 1024 * 1024;

/**
 * The installed paths recorded for `fingerprint`; null when none are (an older install), or the
 * file is not a regular file (never followed through a symlink) of at most LIST_MAX_BYTES.
 */
export function readInstalledFiles(paths: StorePaths, fingerprint: string): Set<string> | null {
  try {
    const file = installedFilesFile(paths, fingerprint);
    const value: unknown = JSON.parse(readRegularText(file, { maxBytes: LIST_MAX_BYTES }));
    if (!Array.isArray(value) || !value.every((p) => typeof p === 'string')) return null;
    return new Set(value as string[]);
  } catch {
    return null;
  }
}
