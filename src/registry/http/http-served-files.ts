import { createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';

const gzip = promisify(gzipCallback);

export interface ServedFile {
  etag: string;
  encoding: 'identity' | 'gzip';
  /**
   * The body of this representation: null when `fresh(etag)` said the client has it; the gzip
   * bytes (kept, one buffer for every request); or, for the file as it is, the number of bytes to
   * stream from the start of the handle (its size when it was hashed).
   */
  body: Buffer | number | null;
}

export interface ServedFiles {
  /**
   * The ETag and body of `file` (gzip-compressed when `gzip` and smaller), read through `handle`,
   * the caller's open descriptor of it (openServedFile), which the caller closes.
   */
  get(
    file: string,
    handle: FileHandle,
    gzip: boolean,
    fresh: (etag: string) => boolean,
  ): Promise<ServedFile>;
}

/** Files above this are served as they are: compressing them would hold them in memory. */
const GZIP_MAX_BYTES = 16 * 1024 * 1024;
/** How many files' hashes (and compressed bodies) are kept; the oldest are dropped first. */
const MAX_ENTRIES = 4096;
/** A large file is hashed this many bytes at a time, never held whole. */
const CHUNK_BYTES = 1024 * 1024;

interface Entry {
  key: string;
  hash: string;
  gzipped: Buffer | null;
}

/**
 * The files `registry serve` answers with (registry.md N10): a file's SHA-256 and its gzip body are
 * computed once and kept while its size, mtime and inode stay the same, so an unchanged file is
 * never hashed or compressed again (a 304 for it reads no byte of it); a changed one is, on its
 * next request. A gzip body is used only when it is smaller. At most MAX_ENTRIES files are kept.
 * A file is never held whole except to compress it (GZIP_MAX_BYTES at most): it is hashed a chunk
 * at a time and its body is streamed, so its size is not bounded by memory (nor by the 2 GiB a
 * buffer holds), and a client that stops reading holds no copy of it.
 */
export function createServedFiles(): ServedFiles {
  const entries = new Map<string, Entry>();
  return {
    async get(file, handle, wantGzip, fresh) {
      const info = await handle.stat();
      const key = `${info.size}:${info.mtimeMs}:${info.ino}`;
      const compress = wantGzip && info.size <= GZIP_MAX_BYTES;
      let entry = entries.get(file);
      let bytes: Buffer | null = null;
      if (entry === undefined || entry.key !== key) {
        bytes = compress ? await readStart(handle, info.size) : null;
        const hash =
          bytes === null
            ? await hashStart(handle, info.size)
            : createHash('sha256').update(bytes).digest('base64url');
        entry = { key, hash, gzipped: null };
        entries.delete(file);
        entries.set(file, entry);
        if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
      }
      if (compress) {
        entry.gzipped ??= await gzip(bytes ?? (await readStart(handle, info.size)));
        if (entry.gzipped.length < info.size) {
          const etag = `"${entry.hash}-gz"`;
          return { etag, encoding: 'gzip', body: fresh(etag) ? null : entry.gzipped };
        }
      }
      const etag = `"${entry.hash}"`;
      return { etag, encoding: 'identity', body: fresh(etag) ? null : info.size };
    },
  };
}

/** The first `size` bytes of `handle` (fewer when the file ended sooner). */
async function readStart(handle: FileHandle, size: number): Promise<Buffer> {
  const buffer = Buffer.alloc(size);
  let length = 0;
  while (length < size) {
    const { bytesRead } = await handle.read(buffer, length, size - length, length);
    if (bytesRead === 0) break;
    length += bytesRead;
  }
  return buffer.subarray(0, length);
}

/** The SHA-256 of the first `size` bytes of `handle`, read CHUNK_BYTES at a time. */
async function hashStart(handle: FileHandle, size: number): Promise<string> {
  const hash = createHash('sha256');
  const buffer = Buffer.alloc(Math.min(size, CHUNK_BYTES));
  let position = 0;
  while (position < size) {
    const want = Math.min(buffer.length, size - position);
    const { bytesRead } = await handle.read(buffer, 0, want, position);
    if (bytesRead === 0) break;
    hash.update(buffer.subarray(0, bytesRead));
    position += bytesRead;
  }
  return hash.digest('base64url');
}
