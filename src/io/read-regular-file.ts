import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { HookpmError } from '../errors.js';
import { errnoCode } from './fs-error.js';

export interface ReadRegularOptions {
  /** A file larger than this is refused before anything is read. */
  maxBytes: number;
  /**
   * Whether a symlink at the last step is followed. False (the default) for the files hookpm owns
   * (state, lock, log, pins, link records, caches): one of them that is a link is refused, never
   * read through. True for files the user owns and may link (an agent's settings, a project's
   * files); the end of the link must still be a regular file.
   */
  followSymlink?: boolean;
}

/** Why a file was refused (the `reason` of the E_IO it throws). */
export type RefusedReason = 'symlink' | 'not_regular' | 'too_large';

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
/** O_NONBLOCK: opening a FIFO returns at once (there may never be a writer) instead of waiting. */
const READ = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/**
 * Reads `file` whole, only if it is a regular file of at most `opts.maxBytes` bytes, and never
 * blocks: the open does not wait on a FIFO, and a FIFO, a device (`/dev/zero`), a socket or a
 * directory is refused before any byte is read, so no command hangs or reads without end on one.
 * Synchronous: the files are small and each caller needs the bytes before going on.
 *
 * Throws an E_IO HookpmError with `reason` (RefusedReason), `file` and a hint for a refused file;
 * the operating system's error (ENOENT, EACCES, ...) unchanged when the open or read fails, so a
 * caller still tells a missing file apart (errnoCode).
 */
export function readRegularFile(file: string, opts: ReadRegularOptions): Buffer {
  const fd = openRegularFile(file, opts);
  try {
    return readOpenedFile(fd, file, opts.maxBytes);
  } finally {
    closeSync(fd);
  }
}

/**
 * The first half of readRegularFile, for a caller that needs the descriptor itself (to read it and
 * touch its times, say): opens `file` under the same rules and returns the descriptor of a regular
 * file of at most `opts.maxBytes` bytes, which the caller closes. Throws as readRegularFile does.
 */
export function openRegularFile(file: string, opts: ReadRegularOptions): number {
  const follow = opts.followSymlink === true;
  let fd: number;
  try {
    fd = openSync(file, READ | (follow ? 0 : NOFOLLOW));
  } catch (error) {
    throw refuseOpen(error, file, follow);
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile())
      throw refused(file, 'not_regular', `is ${kindOf(info)}, not a regular file`);
    if (info.size > opts.maxBytes) throw tooLarge(file, info.size, opts.maxBytes);
    return fd;
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/**
 * Reads the descriptor `fd` of openRegularFile from where it stands to its end; a file that grew
 * past `maxBytes` meanwhile is refused (too_large).
 */
export function readOpenedFile(fd: number, file: string, maxBytes: number): Buffer {
  return readAll(fd, file, fstatSync(fd).size, maxBytes);
}

/** `readRegularFile` as UTF-8 text (a BOM or invalid bytes are kept as the decoder gives them). */
export function readRegularText(file: string, opts: ReadRegularOptions): string {
  return readRegularFile(file, opts).toString('utf8');
}

/** Whether `error` is readRegularFile's refusal (optionally of one reason). */
export function isRefusedFile(error: unknown, reason?: RefusedReason): error is HookpmError {
  if (!(error instanceof HookpmError) || error.code !== 'E_IO') return false;
  const found = error.details['reason'];
  return reason === undefined ? isRefusedReason(found) : found === reason;
}

/**
 * A short reason for a failed read, for messages that name the file themselves: the refusal's own
 * words (`it is a FIFO, not a regular file`) or the operating system's code (`EACCES`).
 */
export function readFailureReason(error: unknown): string {
  if (isRefusedFile(error)) return `it ${String(error.details['says'])}`;
  return errnoCode(error) ?? (error instanceof Error ? error.message : String(error));
}

function isRefusedReason(value: unknown): value is RefusedReason {
  return value === 'symlink' || value === 'not_regular' || value === 'too_large';
}

/**
 * Reads up to `expected` bytes and checks for more: a file that grew past the limit is refused.
 * The buffer has room for one byte more than expected, so the read that finds the end copies nothing.
 */
function readAll(fd: number, file: string, expected: number, maxBytes: number): Buffer {
  let buffer = Buffer.allocUnsafe(Math.min(Math.max(expected + 1, 1024), maxBytes + 1));
  let length = 0;
  for (;;) {
    if (length === buffer.length) {
      if (length > maxBytes) throw tooLarge(file, length, maxBytes);
      const bigger = Buffer.allocUnsafe(Math.min(buffer.length * 2, maxBytes + 1));
      buffer.copy(bigger, 0, 0, length);
      buffer = bigger;
    }
    const got = readSync(fd, buffer, length, buffer.length - length, null);
    if (got === 0) break;
    length += got;
  }
  if (length > maxBytes) throw tooLarge(file, length, maxBytes);
  return buffer.subarray(0, length);
}

/** The open's error as a refusal where it says what the file is, else unchanged. */
function refuseOpen(error: unknown, file: string, follow: boolean): unknown {
  const code = errnoCode(error);
  if (code === 'ELOOP' && !follow)
    return refused(
      file,
      'symlink',
      'is a symbolic link; hookpm does not read its files through one',
    );
  // A socket (ENXIO), or a device with no driver behind it.
  if (code === 'ENXIO' || code === 'ENODEV' || code === 'EOPNOTSUPP')
    return refused(file, 'not_regular', 'is a socket or a device, not a regular file');
  return error;
}

function tooLarge(file: string, size: number, maxBytes: number): HookpmError {
  return refused(file, 'too_large', `is ${size} bytes or more, over the ${maxBytes} allowed`);
}

function refused(file: string, reason: RefusedReason, says: string): HookpmError {
  return new HookpmError('E_IO', `cannot read ${file}: it ${says}`, {
    file,
    reason,
    says,
    hint:
      reason === 'too_large'
        ? 'Move the file aside (hookpm recreates what it owns) or make it smaller.'
        : 'Replace it with a regular file, or move it aside (hookpm recreates what it owns).',
  });
}

function kindOf(info: Stats): string {
  if (info.isDirectory()) return 'a directory';
  if (info.isFIFO()) return 'a FIFO';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  if (info.isSocket()) return 'a socket';
  return 'a special file';
}
