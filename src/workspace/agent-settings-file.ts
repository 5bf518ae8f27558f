import { lstat, mkdir, readlink, realpath, rmdir, stat, unlink } from 'node:fs/promises';
import { dirname, isAbsolute, relative } from 'node:path';
import { writeFileDurable } from '../io/durable-write.js';
import { removeDeadTemps } from '../io/dead-temps.js';
import { errnoCode, toUserFileError } from '../io/fs-error.js';
import { readRegularFile } from '../io/read-regular-file.js';
import { isReadOnlyMode } from '../io/read-only-file.js';
import { HookpmError } from '../errors.js';
import { clip } from '../text/clip.js';

/**
 * An agent's settings file as `hookpm link` reads and writes it. `path` is where the agent looks;
 * `target` is the file written, the end of its symlinks (a settings file linked from a dotfiles
 * repository stays a link, and the repository's file is the one edited).
 */
export interface SettingsFile {
  path: string;
  target: string;
  /** The bytes now; null when there is no file. */
  bytes: Buffer | null;
  /** Permission bits, kept when the file is replaced. */
  mode: number | null;
  /** Owner and group, kept when the file is replaced (by root, for another user); null: no file. */
  ids: { uid: number; gid: number } | null;
  /** Whether `path` itself is a symlink (then the file is elsewhere, and never removed). */
  isLink: boolean;
}

/** An agent's settings file larger than this is refused (they are a few kilobytes). */
export const SETTINGS_FILE_MAX_BYTES = 16 * 1024 * 1024;

/**
 * Reads the settings file at `path`, following its symlinks to a regular file of at most
 * SETTINGS_FILE_MAX_BYTES: a FIFO, a device or a directory there is refused (E_IO), never waited
 * on or read without end; so is a way through a symlink that leads to nothing, or through a file
 * where a directory should be (`~/.claude` a file), naming it. A file or directory this user may
 * not read is E_IO naming it.
 */
export async function readSettingsFile(path: string): Promise<SettingsFile> {
  const target = await realpath(path).catch(async (error: unknown) => {
    if (errnoCode(error) === 'ENOENT') return path;
    if (errnoCode(error) === 'ENOTDIR') throw await notADirectoryError(path);
    throw toUserFileError(error, path, 'read');
  });
  try {
    const bytes = readRegularFile(path, {
      maxBytes: SETTINGS_FILE_MAX_BYTES,
      followSymlink: true,
    });
    const info = await stat(target);
    const isLink = (await lstat(path)).isSymbolicLink();
    const ids = { uid: info.uid, gid: info.gid };
    return { path, target, bytes, mode: info.mode & 0o7777, ids, isLink };
  } catch (error) {
    if (errnoCode(error) === 'ENOTDIR') throw await notADirectoryError(path);
    if (errnoCode(error) !== 'ENOENT') throw toUserFileError(error, path, 'read');
    const dangling = await danglingLinkOn(path);
    if (dangling !== null) throw await danglingLinkError(path, dangling);
    return { path, target, bytes: null, mode: null, ids: null, isLink: false };
  }
}

/**
 * Replaces the file's bytes durably and atomically (registry.md D2: a crash leaves the old file or
 * the new one), keeping its permission bits; creates its directory when there is none. A file or
 * directory this user may not write is E_IO naming the file (the user's, not the store's).
 * Temporary files of it that a killed hookpm left are removed first (removeDeadTemps; the caller
 * holds the store lock).
 */
export async function writeSettingsFile(file: SettingsFile, bytes: Uint8Array): Promise<void> {
  await mkdir(dirname(file.target), { recursive: true }).catch((error: unknown) => {
    throw toUserFileError(error, file.path, 'create the directory of');
  });
  removeDeadTemps([file.target]);
  await writeFileDurable(file.target, bytes, {
    owner: 'user',
    ...(file.mode === null ? {} : { mode: file.mode }),
    ...(file.ids === null ? {} : { ids: file.ids }),
  });
}

/** Whether the user protected the file from edits (isReadOnlyMode). */
export function isReadOnly(file: SettingsFile): boolean {
  return isReadOnlyMode(file.mode);
}

/**
 * Removes the file at the agent's path (unlink of a link that created it). The caller checks that
 * `path` is not a symlink (`isLink`): a file elsewhere that the agent's path leads to is never
 * removed.
 */
export async function removeSettingsFile(file: SettingsFile): Promise<void> {
  await unlink(file.path).catch((error: unknown) => {
    if (errnoCode(error) !== 'ENOENT') throw toUserFileError(error, file.path, 'remove');
  });
}

/**
 * The highest directory writeSettingsFile would make for the file (the first missing one on the
 * way down to it); null when its directory exists.
 */
export async function missingDirOf(file: SettingsFile): Promise<string | null> {
  let missing: string | null = null;
  for (let dir = dirname(file.target); dir !== dirname(dir); dir = dirname(dir)) {
    if ((await lstat(dir).catch(() => null)) !== null) break;
    missing = dir;
  }
  return missing;
}

/**
 * Removes, after removeSettingsFile, the directories link made for the file (missingDirOf): each
 * from the file's own up to `made`, while empty. A directory not empty (the user's files went
 * there since) stays, with those above it; `made` not above the file removes nothing.
 */
export async function removeMadeDirs(file: SettingsFile, made: string): Promise<void> {
  const below = relative(made, dirname(file.path));
  if (below.startsWith('..') || isAbsolute(below)) return;
  for (let dir = dirname(file.path); dir !== dirname(dir); dir = dirname(dir)) {
    const removed = await rmdir(dir).then(
      () => true,
      () => false,
    );
    if (!removed || dir === made) return;
  }
}

/**
 * The symlink that leads nowhere on the way to `path` (`path` itself or a directory above it), or
 * null: the first one that exists, from `path` up, is no symlink or leads somewhere.
 */
async function danglingLinkOn(path: string): Promise<string | null> {
  for (let probe = path; probe !== dirname(probe); probe = dirname(probe)) {
    const info = await lstat(probe).catch(() => null);
    if (info === null) continue;
    if (!info.isSymbolicLink()) return null;
    const leads = await stat(probe).then(
      () => true,
      (error: unknown) => errnoCode(error) !== 'ENOENT',
    );
    return leads ? null : probe;
  }
  return null;
}

/**
 * A settings file whose way leads through a symlink to nothing (`link`): hookpm neither reads nor
 * creates what it points to.
 */
async function danglingLinkError(path: string, link: string): Promise<HookpmError> {
  const to = await readlink(link).catch(() => null);
  const what = link === path ? 'it' : link;
  const where = to === null ? '' : ` to ${clip(to)}`;
  return new HookpmError(
    'E_IO',
    `cannot read ${path}: ${what} is a symlink${where}, which leads to nothing`,
    {
      file: path,
      reason: 'dangling_symlink',
      hint: `Create what the symlink leads to, or remove the symlink, then run the command again.`,
    },
  );
}

/** A settings file below a file that is not a directory: E_IO naming the nearest such file. */
async function notADirectoryError(path: string): Promise<HookpmError> {
  let blocker = dirname(path);
  for (let dir = dirname(path); dir !== dirname(dir); dir = dirname(dir)) {
    const info = await stat(dir).catch(() => null);
    if (info !== null && !info.isDirectory()) blocker = dir;
  }
  return new HookpmError('E_IO', `cannot read ${path}: ${blocker} is not a directory`, {
    file: path,
    reason: 'not_a_directory',
    hint: `Move ${blocker} away (the settings file goes in a directory there), then run the command again.`,
  });
}
