import { createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';

const gzip = promisify(gzipCallback);

export interface ServedFile {
  etag: string;
  encoding: 'identity' | 'gzip';
  /** The body of this representation; null when `fresh(etag)` said the client has it. */
  body: Buffer | null;
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
 */
export function createServedFiles(): ServedFiles {
  const entries = new Map<string, Entry>();
  return {
    async get(file, handle, wantGzip, fresh) {
      const info = await handle.stat();
      const key = `${info.size}:${info.mtimeMs}:${info.ino}`;
      let entry = entries.get(file);
      let bytes: Buffer | null = null;
      if (entry === undefined || entry.key !== key) {
        bytes = await handle.readFile();
        const hash = createHash('sha256').update(bytes).digest('base64url');
        entry = { key, hash, gzipped: null };
        entries.delete(file);
        entries.set(file, entry);
        if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
      }
      if (wantGzip && info.size <= GZIP_MAX_BYTES) {
        bytes ??= entry.gzipped === null ? await handle.readFile() : null;
        if (entry.gzipped === null && bytes !== null) entry.gzipped = await gzip(bytes);
        const gzipped = entry.gzipped as Buffer;
        if (gzipped.length < info.size) {
          const etag = `"${entry.hash}-gz"`;
          return { etag, encoding: 'gzip', body: fresh(etag) ? null : gzipped };
        }
      }
      const etag = `"${entry.hash}"`;
      if (fresh(etag)) return { etag, encoding: 'identity', body: null };
      return { etag, encoding: 'identity', body: bytes ?? (await handle.readFile()) };
    },
  };
}
