import { randomBytes } from 'node:crypto';
import { open, rename, unlink } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { HookpmError } from '../errors.js';
import { errnoCode, toStoreError } from './fs-error.js';

export interface DurableWriteOptions {
  /** Permission bits of the new file, applied exactly (not masked by the umask). */
  mode?: number;
}

/** The prefix of the temporary files of `file`; a crash can leave one, which is safe to delete under the lock. */
export function durableTempPrefix(file: string): string {
  return `.${basename(file)}.tmp-`;
}

/**
 * registry.md D2: replaces `file` with `data` so that a crash, a short write or a full disk at any
 * instant leaves either the old content or the new one. The bytes go to a temporary file in the same
 * directory, written completely (every write's count checked, a write of 0 bytes is a failure),
 * fsynced and closed, then renamed over `file`, and the directory is fsynced. On failure the
 * temporary file is removed and `file` is untouched. Errors: E_NOSPC, E_STORE_READONLY, E_IO.
 * Deliberately not write-file-atomic: it can report success after a short write.
 */
export async function writeFileDurable(
  file: string,
  data: string | Uint8Array,
  opts: DurableWriteOptions = {},
): Promise<void> {
  const dir = dirname(file);
  const temp = join(
    dir,
    `${durableTempPrefix(file)}${process.pid}-${randomBytes(6).toString('hex')}`,
  );
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  let handle: FileHandle | undefined;
  try {
    handle = await open(temp, 'wx', opts.mode ?? 0o644);
    if (opts.mode !== undefined) await handle.chmod(opts.mode);
    await writeAll(handle, bytes, file);
    await handle.sync();
    await handle.close();
    handle = undefined;
    await rename(temp, file);
  } catch (error) {
    await handle?.close().catch(() => undefined);
    await unlink(temp).catch(() => undefined);
    throw toStoreError(error, file, 'write');
  }
  await syncDirectory(dir, file);
}

async function writeAll(handle: FileHandle, bytes: Uint8Array, file: string): Promise<void> {
  let offset = 0;
  while (offset < bytes.length) {
    const { bytesWritten } = await handle.write(bytes, offset, bytes.length - offset, offset);
    if (bytesWritten <= 0) {
      throw new HookpmError(
        'E_IO',
        `Failed to write ${file}: the write stopped after ${offset} of ${bytes.length} bytes`,
        {
          file,
          expected: bytes.length,
          found: offset,
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
async function syncDirectory(dir: string, file: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch (error) {
    const code = errnoCode(error);
    if (code !== 'EISDIR' && code !== 'EPERM' && code !== 'EINVAL' && code !== 'ENOTSUP') {
      throw toStoreError(error, file, 'sync the directory of');
    }
  } finally {
    await handle?.close().catch(() => undefined);
  }
}
