import { open, rename, unlink } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { toStoreError } from '../../io/fs-error.js';
import { trackTemporary } from '../../io/interrupt-cleanup.js';
import { uniqueHex } from '../../io/unique-hex.js';
import type { BodySink } from './body-reader.js';

/**
 * A sink that streams into a temporary sibling of `file` (`<file>.<random>.part`, created
 * exclusively) and, once the body passed every check, fsyncs it and renames it to `file`.
 * A discarded attempt leaves no file behind, so a truncated or mismatching download is never
 * promoted (registry.md N3, section 7 step 2). Disk failures are store errors (E_NOSPC,
 * E_STORE_READONLY, E_IO), which are never retried.
 */
export function fileSink(file: string): BodySink<string> {
  const temp = `${file}.${uniqueHex(6)}.part`;
  let handle: FileHandle | undefined;
  // An interrupted command removes the temporary file (io/interrupt-cleanup.ts).
  let untrack = (): void => undefined;
  const guarded = async <T>(action: string, step: () => Promise<T>): Promise<T> => {
    try {
      return await step();
    } catch (error) {
      throw toStoreError(error, temp, action);
    }
  };
  const ensureOpen = async (): Promise<FileHandle> => {
    if (handle === undefined) {
      untrack = trackTemporary(temp);
      handle = await guarded('create', () => open(temp, 'wx', 0o644));
    }
    return handle;
  };
  return {
    write: async (chunk) => {
      const fh = await ensureOpen();
      await guarded('write', async () => {
        let offset = 0;
        while (offset < chunk.length)
          offset += (await fh.write(chunk, offset, chunk.length - offset)).bytesWritten;
      });
    },
    finish: async () => {
      const fh = await ensureOpen();
      await guarded('write', async () => {
        await fh.sync();
        await fh.close();
        handle = undefined;
        await rename(temp, file);
      });
      untrack();
      return file;
    },
    discard: async () => {
      await handle?.close().catch(() => undefined);
      handle = undefined;
      await unlink(temp).catch(() => undefined);
      untrack();
    },
  };
}
