import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { readRegularText } from '../io/read-regular-file.js';
import type { StorePaths } from './store-paths.js';

/** Past this size the log is rotated to dispatch.1.jsonl (one older generation is kept). */
export const LOG_MAX_BYTES = 8 * 1024 * 1024;
/**
 * The longest line one append writes: PIPE_BUF on Linux. A single O_APPEND `write` of a regular
 * file is never interleaved with another writer's (POSIX 2.9.7), and staying under PIPE_BUF keeps
 * that true for the file systems and pipes that only promise it up to this size.
 */
export const LOG_LINE_MAX_BYTES = 4096;

/**
 * O_NONBLOCK: a FIFO put where the log belongs fails the open (ENXIO) instead of hanging it;
 * O_NOFOLLOW: a log that is a symlink is never appended through (ELOOP), wherever it points.
 */
const APPEND =
  constants.O_WRONLY |
  constants.O_APPEND |
  constants.O_CREAT |
  constants.O_NONBLOCK |
  (constants.O_NOFOLLOW ?? 0);
/** O_NONBLOCK and O_NOFOLLOW as above, for `log --follow`'s reads. */
const READ = constants.O_RDONLY | constants.O_NONBLOCK | (constants.O_NOFOLLOW ?? 0);
/**
 * A generation larger than this is refused unread (rotation keeps each near LOG_MAX_BYTES; only
 * a file put there by something else is larger).
 */
export const LOG_READ_MAX_BYTES = 8 * LOG_MAX_BYTES;

/** `<data>/log`. */
export function logDir(paths: StorePaths): string {
  return join(paths.data, 'log');
}

/** The current decision log and the generation before it, oldest first. */
export function dispatchLogFiles(paths: StorePaths): { current: string; previous: string } {
  const dir = logDir(paths);
  return { current: join(dir, 'dispatch.jsonl'), previous: join(dir, 'dispatch.1.jsonl') };
}

/**
 * Appends one line (no newline in it; one is added) with one `write` on a descriptor opened with
 * O_APPEND: no lock, so concurrent dispatches of several processes each land whole. A log that
 * has reached `maxBytes` is first renamed to dispatch.1.jsonl (replacing the older generation)
 * and the line goes to a new dispatch.jsonl; two processes rotating at once may drop that older
 * generation early, never part of a line.
 * Returns whether the line was written; never throws (a full disk, a read-only store, a missing
 * directory that cannot be made, a log that is a symlink, a FIFO or a device all just leave the
 * line out). A short write (the disk filled up mid-line) is ended with a newline when it can be,
 * so the next line starts on its own.
 */
export function appendDispatchLine(
  paths: StorePaths,
  line: string,
  maxBytes: number = LOG_MAX_BYTES,
): boolean {
  const { current, previous } = dispatchLogFiles(paths);
  const bytes = Buffer.from(`${line}\n`);
  let fd: number;
  try {
    fd = openAppend(current);
  } catch {
    return false;
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return false;
    if (stat.size > 0 && stat.size + bytes.length > maxBytes) {
      rotate(current, previous, stat.ino);
      closeSync(fd);
      fd = -1;
      fd = openAppend(current);
    }
    const written = writeSync(fd, bytes);
    if (written === bytes.length) return true;
    if (written > 0) writeSync(fd, '\n');
    return false;
  } catch {
    return false;
  } finally {
    try {
      if (fd !== -1) closeSync(fd);
    } catch {
      // Nothing is left to lose.
    }
  }
}

function openAppend(file: string): number {
  try {
    return openSync(file, APPEND, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    mkdirSync(join(file, '..'), { recursive: true, mode: 0o700 });
    return openSync(file, APPEND, 0o600);
  }
}

/** Renames the log aside, unless another process already did (its inode is no longer `ino`). */
function rotate(current: string, previous: string, ino: number): void {
  try {
    if (lstatSync(current).ino === ino) renameSync(current, previous);
  } catch {
    // Rotated by someone else, or not possible: the line is appended all the same.
  }
}

/**
 * The text of both generations, oldest first; a missing file is empty. Each is read only when it
 * is a regular file of at most LOG_READ_MAX_BYTES and not a symlink: otherwise E_IO
 * (io/read-regular-file.ts), at once, never waiting on a FIFO or reading a device without end.
 */
export function readDispatchLog(paths: StorePaths): string {
  const { current, previous } = dispatchLogFiles(paths);
  return readOrEmpty(previous) + readOrEmpty(current);
}

function readOrEmpty(file: string): string {
  try {
    return readRegularText(file, { maxBytes: LOG_READ_MAX_BYTES });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return '';
    throw error;
  }
}

/** Where a follower of the log has read to: the file (by inode) and the byte offset in it. */
export interface LogPosition {
  ino: number;
  offset: number;
}

/**
 * The whole lines added to the log since `from` (null: from its current end, nothing read), and
 * the position after them. After a rotation, the rest of the rotated file comes first, then the
 * new file from its start. A line not yet ended by its newline is left for the next call.
 */
export function readDispatchLogSince(
  paths: StorePaths,
  from: LogPosition | null,
): { text: string; position: LogPosition | null } {
  const { current, previous } = dispatchLogFiles(paths);
  const now = statOrNull(current);
  if (from === null)
    return { text: '', position: now === null ? null : { ino: now.ino, offset: now.size } };
  let text = '';
  let position: LogPosition | null = from;
  if (now === null || now.ino !== from.ino) {
    const old = statOrNull(previous);
    if (old !== null && old.ino === from.ino)
      text += readRange(previous, from.offset, old.size).text;
    position = now === null ? null : { ino: now.ino, offset: 0 };
  }
  if (now !== null && position !== null) {
    const read = readRange(current, position.offset, now.size);
    text += read.text;
    position = { ino: now.ino, offset: position.offset + read.bytes };
  }
  return { text, position };
}

/** The log file's inode and size; null when it is missing or not a regular file (never followed). */
function statOrNull(file: string): { ino: number; size: number } | null {
  try {
    const stat = lstatSync(file);
    return stat.isFile() ? { ino: stat.ino, size: stat.size } : null;
  } catch {
    return null;
  }
}

/**
 * The whole lines of `file` between `start` and `end`, and how many bytes they are. A line longer
 * than LOG_READ_MAX_BYTES (never one hookpm wrote) is passed over: its first LOG_READ_MAX_BYTES
 * are counted as read, so a follower moves on, and the rest reads as a damaged line.
 */
function readRange(file: string, start: number, end: number): { text: string; bytes: number } {
  if (end <= start) return { text: '', bytes: 0 };
  const buffer = Buffer.alloc(Math.min(end - start, LOG_READ_MAX_BYTES));
  let fd: number;
  try {
    fd = openSync(file, READ);
  } catch {
    return { text: '', bytes: 0 };
  }
  try {
    if (!fstatSync(fd).isFile()) return { text: '', bytes: 0 };
    const got = readSync(fd, buffer, 0, buffer.length, start);
    const last = buffer.lastIndexOf(10, got - 1);
    if (last === -1) return { text: '', bytes: got === LOG_READ_MAX_BYTES ? got : 0 };
    return { text: buffer.toString('utf8', 0, last + 1), bytes: last + 1 };
  } finally {
    closeSync(fd);
  }
}
