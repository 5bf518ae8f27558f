import { constants } from 'node:fs';
import { open, readlink, realpath, stat, type FileHandle } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { join } from 'node:path';
import { isInside } from '../../text/path-inside.js';

/** O_NONBLOCK: opening a FIFO returns at once (there may never be a writer) instead of waiting. */
const READ = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);

/** A file to serve: its real path and its open descriptor, which the caller closes. */
export interface OpenedFile {
  file: string;
  handle: FileHandle;
}

/**
 * The file a request names (`segments` below the real directory `root`), opened for reading, or
 * null when it must not be served: the path must resolve, symlinks followed, to a regular file
 * inside `root`, and the descriptor must be that very file. The open never waits and does not
 * follow a final symlink (registry.md D7: a FIFO with no writer does not block it), the descriptor
 * is checked to be a regular file before any byte is read, and where the descriptor's file lies is
 * checked after the open: a file (or a directory above it) swapped for a symlink leading out, a
 * FIFO or a device between the look-up and the open is refused, never read. A file that vanished
 * meanwhile is null too.
 */
export async function openServedFile(
  root: string,
  segments: readonly string[],
): Promise<OpenedFile | null> {
  const path = join(root, ...segments);
  const before = await realInside(root, path);
  if (before === null) return null;
  let handle: FileHandle;
  try {
    handle = await open(before, READ);
  } catch {
    return null;
  }
  try {
    const info = await handle.stat();
    if (info.isFile() && (await isOpenedInside(root, path, handle, info)))
      return { file: before, handle };
  } catch {
    // refused below
  }
  await handle.close();
  return null;
}

/** The real path of `path` when it lies inside `root`, else null (also when it is missing). */
async function realInside(root: string, path: string): Promise<string | null> {
  try {
    const real = await realpath(path);
    return isInside(root, real) ? real : null;
  } catch {
    return null;
  }
}

/**
 * Whether the file open on `handle` lies inside `root`: where the kernel says it is (Linux's
 * /proc/self/fd, exact), else whether `path` still resolves inside `root` to that file (a second
 * look, which narrows the window a swap has but cannot close it).
 */
async function isOpenedInside(
  root: string,
  path: string,
  handle: FileHandle,
  opened: Stats,
): Promise<boolean> {
  let where: string;
  try {
    where = await readlink(`/proc/self/fd/${handle.fd}`);
  } catch {
    return isStill(root, path, opened);
  }
  return isInside(root, where);
}

/** Whether `path` still resolves inside `root` to the file `opened` describes. */
async function isStill(root: string, path: string, opened: Stats): Promise<boolean> {
  const real = await realInside(root, path);
  if (real === null) return false;
  const now = await stat(real);
  return now.dev === opened.dev && now.ino === opened.ino;
}
