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
/** The gzip bodies kept take this many bytes in all at most; the oldest are dropped first. */
const GZIP_KEPT_BYTES = 64 * 1024 * 1024;
/**
 * A file whose mtime is less than this before it was looked at is not kept: a write in the same
 * tick of the file system's clock (up to 2 s on FAT) leaves size, mtime and inode as they were, so
 * a hash kept from before it would be served for other bytes until the file changed again.
 */
const SETTLE_MS = 2000;
/**
 * The files held whole to be compressed, by all the requests running at once, take this many bytes
 * at most: past it, a file not compressed yet is served as it is, so memory stays bounded however
 * many clients ask at once.
 */
const GZIP_READING_BYTES = 64 * 1024 * 1024;

interface Entry {
  key: string;
  hash: string;
  /** The gzip body; `larger` when it is not smaller than the file (not kept); null: not made. */
  gzipped: Buffer | 'larger' | null;
}

/**
 * The files `registry serve` answers with (registry.md N10): a file's SHA-256 and its gzip body are
 * computed once and kept while its size, mtime and inode stay the same, so an unchanged file is
 * never hashed or compressed again (a 304 for it reads no byte of it); a changed one is, on its
 * next request, as is one whose mtime was less than SETTLE_MS old when it was read (it may yet
 * change within the same mtime). A gzip body is used, and kept, only when it is smaller. At most
 * MAX_ENTRIES files are kept, and gzip bodies of `gzipKeptBytes` in all (default GZIP_KEPT_BYTES;
 * a dropped one is made again when asked for); the files being compressed take `gzipReadingBytes`
 * in all (default GZIP_READING_BYTES; past it a file is served as it is).
 * A file is never held whole except to compress it (GZIP_MAX_BYTES at most): it is hashed a chunk
 * at a time and its body is streamed, so its size is not bounded by memory (nor by the 2 GiB a
 * buffer holds), and a client that stops reading holds no copy of it.
 */
export function createServedFiles(
  opts: { gzipKeptBytes?: number; gzipReadingBytes?: number } = {},
): ServedFiles {
  const limit = opts.gzipKeptBytes ?? GZIP_KEPT_BYTES;
  const readingLimit = opts.gzipReadingBytes ?? GZIP_READING_BYTES;
  /** Bytes of files held whole by the requests compressing them now. */
  let reading = 0;
  const entries = new Map<string, Entry>();
  let keptBytes = 0;
  const forget = (entry: Entry | undefined): void => {
    if (entry !== undefined && Buffer.isBuffer(entry.gzipped)) keptBytes -= entry.gzipped.length;
  };
  /** Keeps `gzipped` for `entry`, dropping the oldest other bodies past the limit. */
  const keep = (entry: Entry, gzipped: Buffer | 'larger'): void => {
    entry.gzipped = gzipped;
    if (!Buffer.isBuffer(gzipped)) return;
    keptBytes += gzipped.length;
    for (const other of entries.values()) {
      if (keptBytes <= limit) break;
      if (other === entry || !Buffer.isBuffer(other.gzipped)) continue;
      forget(other);
      other.gzipped = null;
    }
  };
  return {
    async get(file, handle, wantGzip, fresh) {
      const lookedAt = Date.now();
      const info = await handle.stat();
      const key = `${info.size}:${info.mtimeMs}:${info.ino}`;
      let entry = entries.get(file);
      // A gzip body kept for this very file needs no reading: only a new one counts in `reading`.
      const kept = entry !== undefined && entry.key === key && entry.gzipped !== null;
      const compress =
        wantGzip && info.size <= GZIP_MAX_BYTES && (kept || reading + info.size <= readingLimit);
      const held = compress && !kept ? info.size : 0;
      reading += held;
      try {
        let bytes: Buffer | null = null;
        if (entry === undefined || entry.key !== key) {
          bytes = compress ? await readStart(handle, info.size) : null;
          const hash =
            bytes === null
              ? await hashStart(handle, info.size)
              : createHash('sha256').update(bytes).digest('base64url');
          forget(entries.get(file));
          entry = { key, hash, gzipped: null };
          entries.delete(file);
          // A file written too recently is hashed (and compressed) again on its next request.
          if (lookedAt - info.mtimeMs >= SETTLE_MS) entries.set(file, entry);
          if (entries.size > MAX_ENTRIES) {
            const oldest = entries.keys().next().value as string;
            forget(entries.get(oldest));
            entries.delete(oldest);
          }
        }
        if (compress) {
          let gzipped = entry.gzipped;
          if (gzipped === null) {
            const made = await gzip(bytes ?? (await readStart(handle, info.size)));
            gzipped = made.length < info.size ? made : 'larger';
            // Kept only for the entry still current (another request may have replaced it).
            if (entries.get(file) === entry && entry.gzipped === null) keep(entry, gzipped);
          }
          if (gzipped !== 'larger') {
            const etag = `"${entry.hash}-gz"`;
            return { etag, encoding: 'gzip', body: fresh(etag) ? null : gzipped };
          }
        }
        const etag = `"${entry.hash}"`;
        return { etag, encoding: 'identity', body: fresh(etag) ? null : info.size };
      } finally {
        reading -= held;
      }
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
