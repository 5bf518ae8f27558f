import {
  closeSync,
  fchmodSync,
  fchownSync,
  fstatSync,
  fsyncSync,
  openSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { HookpmError } from '../errors.js';
import { errnoCode, fileErrorOf, quietly, type FileOwner } from './fs-error.js';
import { uniqueHex } from './unique-hex.js';

export interface DurableWriteOptions {
  /** Permission bits of the new file, applied exactly (not masked by the umask). */
  mode?: number;
  /**
   * Owner and group of the new file (those of the file it replaces), set when they are not the
   * writer's and the writer may give the file away (root); otherwise the file is the writer's.
   */
  ids?: { uid: number; gid: number };
  /**
   * Whose file it is (FileOwner), which decides how a file that cannot be written is reported:
   * E_STORE_READONLY for the store's (the default), E_IO naming the file for the user's.
   */
  owner?: FileOwner;
}

/** The prefix of the temporary files of `file`; a crash can leave one, which is safe to delete under the lock. */
export function durableTempPrefix(file: string): string {
  return `.${basename(file)}.tmp-`;
}

/** The pid of the process that made `name`, a temporary file of `file` (`<prefix><pid>-<hex>`); null for any other name. */
export function durableTempWriter(file: string, name: string): number | null {
  return name.startsWith(durableTempPrefix(file)) ? anyDurableTempWriter(name) : null;
}

/** A temporary file of any file (durableTempPrefix): `.<name>.tmp-<pid>-<hex>`. */
const TEMP_NAME = /^\..+\.tmp-(\d+)-[0-9a-f]+$/;

/** durableTempWriter for a name of a temporary file of whichever file; null for any other name. */
export function anyDurableTempWriter(name: string): number | null {
  const pid = TEMP_NAME.exec(name)?.[1];
  return pid === undefined ? null : Number(pid);
}

/**
 * registry.md D2: replaces `file` with `data` so that a crash, a short write or a full disk at any
 * instant leaves either the old content or the new one: prepareFileDurable, then its commit.
 * Errors: E_NOSPC, E_STORE_READONLY (for a user's file, `owner`, E_IO naming it), E_IO.
 * Deliberately not write-file-atomic: it can report success after a short write. The calls are
 * synchronous: each needs the one before it, and a thread-pool round trip per call costs more than
 * the call for a small file (bench/install.bench.mjs).
 */
export async function writeFileDurable(
  file: string,
  data: string | Uint8Array | readonly Uint8Array[],
  opts: DurableWriteOptions = {},
): Promise<void> {
  prepareFileDurable(file, data, opts).commit();
}

/** The new bytes of a file, durable beside it and not yet in its place (prepareFileDurable). */
export interface PreparedFile {
  /**
   * Renames them over the file, then fsyncs the directory. On failure the temporary file is
   * removed and the file is untouched. Errors: E_NOSPC, E_STORE_READONLY, E_IO.
   */
  commit(): void;
  /** Removes the temporary file, the file untouched; never throws. */
  discard(): void;
}

/**
 * The first half of writeFileDurable, for a caller that must know every file of a change can be
 * written before it changes any: the bytes go to a temporary file in the same directory, written
 * completely (every write's count checked, a write of 0 bytes is a failure), fsynced and closed.
 * On failure the temporary file is removed. Errors: E_NOSPC, E_STORE_READONLY, E_IO.
 */
export function prepareFileDurable(
  file: string,
  data: string | Uint8Array | readonly Uint8Array[],
  opts: DurableWriteOptions = {},
): PreparedFile {
  const prepared = prepare(file, data, opts, false);
  return { commit: prepared.commit, discard: prepared.discard };
}

/**
 * writeFileDurable that keeps the new file open: returns its descriptor, which the caller closes,
 * opened before the rename, so it is the file written whatever replaces it after. While it is
 * open the file's inode stays allocated and no other file of its device can have its number: the
 * path still names the file written exactly when it has the descriptor's device and inode
 * (io/file-identity.ts isOpenFileAt). Errors: as writeFileDurable's, with nothing left open.
 */
export function writeFileDurableHeld(
  file: string,
  data: string | Uint8Array | readonly Uint8Array[],
  opts: DurableWriteOptions = {},
): number {
  const prepared = prepare(file, data, opts, true);
  try {
    prepared.commit();
  } catch (error) {
    quietly(() => closeSync(prepared.fd as number));
    throw error;
  }
  return prepared.fd as number;
}

/** prepareFileDurable; with `hold`, the temporary file's descriptor stays open as `fd`. */
function prepare(
  file: string,
  data: string | Uint8Array | readonly Uint8Array[],
  opts: DurableWriteOptions,
  hold: boolean,
): PreparedFile & { fd: number | undefined } {
  const dir = dirname(file);
  const toError = fileErrorOf(opts.owner ?? 'store');
  const temp = join(dir, `${durableTempPrefix(file)}${process.pid}-${uniqueHex(6)}`);
  // Parts are written one after the other (a large file spliced from ranges of another is not
  // copied into one buffer first).
  const parts =
    typeof data === 'string'
      ? [Buffer.from(data, 'utf8')]
      : data instanceof Uint8Array
        ? [data]
        : data;
  let fd: number | undefined;
  try {
    fd = openSync(temp, 'wx', opts.mode ?? 0o644);
    // Before the mode: a change of owner may clear set-id bits.
    if (opts.ids !== undefined) keepOwner(fd, opts.ids);
    // Exactly, whatever the umask; no change (a journaled write) when it is right already.
    if (opts.mode !== undefined && (fstatSync(fd).mode & 0o7777) !== opts.mode)
      fchmodSync(fd, opts.mode);
    const total = parts.reduce((sum, part) => sum + part.length, 0);
    let position = 0;
    for (const part of parts) {
      writeAll(fd, part, file, position, total);
      position += part.length;
    }
    fsyncSync(fd);
    if (!hold) {
      closeSync(fd);
      fd = undefined;
    }
  } catch (error) {
    if (fd !== undefined) quietly(() => closeSync(fd as number));
    quietly(() => unlinkSync(temp));
    throw toError(error, file, 'write');
  }
  return {
    fd,
    commit() {
      try {
        renameSync(temp, file);
      } catch (error) {
        quietly(() => unlinkSync(temp));
        throw toError(error, file, 'write');
      }
      syncDirectory(dir, file, toError);
    },
    discard: () => quietly(() => unlinkSync(temp)),
  };
}

/** Gives the open file `ids` when it has others; EPERM (not root) leaves it the writer's. */
function keepOwner(fd: number, ids: { uid: number; gid: number }): void {
  const { uid, gid } = fstatSync(fd);
  if (uid === ids.uid && gid === ids.gid) return;
  try {
    fchownSync(fd, ids.uid, ids.gid);
  } catch (error) {
    if (errnoCode(error) !== 'EPERM') throw error;
  }
}

/** Writes all of `bytes` at `position` of the file. `total`: of the whole file, for the error. */
function writeAll(
  fd: number,
  bytes: Uint8Array,
  file: string,
  position: number,
  total: number,
): void {
  let offset = 0;
  while (offset < bytes.length) {
    const bytesWritten = writeSync(fd, bytes, offset, bytes.length - offset, position + offset);
    if (bytesWritten <= 0) {
      throw new HookpmError(
        'E_IO',
        `failed to write ${file}: the write stopped after ${position + offset} of ${total} bytes`,
        {
          file,
          expected: total,
          found: position + offset,
        },
      );
    }
    offset += bytesWritten;
  }
}

/**
 * Makes the rename itself durable. Platforms that cannot open or fsync a directory (Windows:
 * EISDIR/EPERM; some file systems: EINVAL/ENOTSUP) give no stronger guarantee, so those are ignored.
 */
function syncDirectory(dir: string, file: string, toError: ReturnType<typeof fileErrorOf>): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch (error) {
    const code = errnoCode(error);
    if (code !== 'EISDIR' && code !== 'EPERM' && code !== 'EINVAL' && code !== 'ENOTSUP') {
      throw toError(error, file, 'sync the directory of');
    }
  } finally {
    if (fd !== undefined) quietly(() => closeSync(fd as number));
  }
}
