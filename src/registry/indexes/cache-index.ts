/**
 * The index cache (registry.md N4, D1: `<cache>/indexes/<registry>.json`; the cache may be deleted
 * at any time without loss). One file per registry, replaced in one durable write, holds two lines:
 * 1. `{"cacheVersion":1,"url","etag","validator","fetchedAt","summary"}`: where the copy came from,
 *    how to revalidate it, and its search projection (index-summary.ts); a marketplace's catalog
 *    adds `excluded`, the entries it left out and why;
 * 2. the index as parseIndex returned it.
 * A search reads and parses only the first line; `info` and installs read both.
 *
 * Only indexes that passed parseIndex are ever written here (I2), by hookpm alone, so a read checks
 * the envelope (version, URL, shapes) but does not run the index schema again: that costs about
 * half a second for 10,000 plugins, which `hookpm search` must not pay. A file that fails the
 * envelope check (truncated, another format, another location) counts as absent.
 */
import { constants } from 'node:fs';
import { mkdir, open, rm } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { isPlainObject } from '../../json/describe-value.js';
import { toStoreError } from '../../io/fs-error.js';
import { readRegularFile } from '../../io/read-regular-file.js';
import { baseOf } from '../http/read-base.js';
import { INDEX_MAX_BYTES } from '../http/fetch-options.js';
import type { RegistryIndex } from './index-schema.js';
import type { IndexSummary } from './index-summary.js';
import type { ExcludedEntry } from '../marketplace/marketplace-schema.js';

export const INDEX_CACHE_VERSION = 1;

export interface CacheMeta {
  /** The index URL the copy was read from; a copy for another URL is never used. */
  url: string;
  /** N4: the ETag of the HTTP response, sent back as If-None-Match. */
  etag: string | null;
  /** For `file:` indexes: size, mtime and inode of the file when it was read. */
  validator: string | null;
  /** When the copy was last confirmed current (ISO time). */
  fetchedAt: string;
  /** A marketplace's entries left out of its catalog, with why (marketplace-index.ts). */
  excluded?: ExcludedEntry[];
  /**
   * Where a same-origin redirect led from `url` when the copy was read (relative tarball locations
   * resolve against it); absent when the index was read at `url` itself.
   */
  base?: string;
}

export interface CachedHead extends CacheMeta {
  summary: IndexSummary;
}

export interface CachedIndex extends CachedHead {
  index: RegistryIndex;
}

export function indexCacheFile(cacheDir: string, registry: string): string {
  return join(cacheDir, `${registry}.json`);
}

/** The first line of the cached copy of `registry`'s index read from `url`, or null; the index line is not read. */
export async function readCachedHead(
  cacheDir: string,
  registry: string,
  url: string,
): Promise<CachedHead | null> {
  const bytes = await readFirstLine(indexCacheFile(cacheDir, registry));
  return bytes === null ? null : headOf(bytes, bytes.length, url);
}

/**
 * A cached copy larger than this is not read: the index is at most INDEX_MAX_BYTES, and its
 * summary is smaller than the index.
 */
export const INDEX_CACHE_MAX_BYTES = 4 * INDEX_MAX_BYTES;
const CACHE_READ = constants.O_RDONLY | constants.O_NONBLOCK | (constants.O_NOFOLLOW ?? 0);

/**
 * The whole cached copy (both lines, from one read), or null; null too for a file that is not a
 * regular file (a symlink, a FIFO, a device) of at most INDEX_CACHE_MAX_BYTES.
 */
export async function readCachedIndex(
  cacheDir: string,
  registry: string,
  url: string,
): Promise<CachedIndex | null> {
  let bytes: Buffer;
  try {
    bytes = readRegularFile(indexCacheFile(cacheDir, registry), {
      maxBytes: INDEX_CACHE_MAX_BYTES,
    });
  } catch {
    return null;
  }
  const newline = bytes.indexOf(10);
  const head = newline === -1 ? null : headOf(bytes, newline, url);
  if (head === null) return null;
  const index = parseOrNull(bytes.toString('utf8', newline + 1));
  return isIndexShape(index) ? { ...head, index } : null;
}

/**
 * Replaces the cached copy durably (D2 write discipline); `summary` defaults to the index's. The
 * file is the owner's only (0600), as the state is: its URL may hold credentials (N5).
 */
export async function writeCachedIndex(
  cacheDir: string,
  registry: string,
  entry: CacheMeta & { index: RegistryIndex; summary?: IndexSummary },
): Promise<IndexSummary> {
  const file = indexCacheFile(cacheDir, registry);
  await mkdir(cacheDir, { recursive: true }).catch((error: unknown) => {
    throw toStoreError(error, file, 'write');
  });
  const { url, etag, validator, fetchedAt, index, excluded, base } = entry;
  const summary = entry.summary ?? (await import('./index-summary.js')).summarizeIndex(index);
  const head = {
    cacheVersion: INDEX_CACHE_VERSION,
    url,
    etag,
    validator,
    fetchedAt,
    summary,
    ...(excluded === undefined || excluded.length === 0 ? {} : { excluded }),
    ...(base === undefined ? {} : { base }),
  };
  // Loaded here, not at the top: a search only reads, and durable-write loads node:crypto.
  const { writeFileDurable } = await import('../../io/durable-write.js');
  await writeFileDurable(file, `${JSON.stringify(head)}\n${JSON.stringify(index)}\n`, {
    mode: 0o600,
  });
  return summary;
}

export async function removeCachedIndex(cacheDir: string, registry: string): Promise<void> {
  await rm(indexCacheFile(cacheDir, registry), { force: true });
}

function headOf(bytes: Buffer, end: number, url: string): CachedHead | null {
  const head = parseOrNull(bytes.toString('utf8', 0, end));
  if (!isHead(head, url)) return null;
  const { etag, validator, fetchedAt, summary, excluded } = head;
  const base = (head as { base?: unknown }).base;
  return {
    url,
    etag,
    validator,
    fetchedAt,
    summary,
    ...(excluded === undefined ? {} : { excluded }),
    ...(typeof base === 'string' && baseOf(url, base) !== url ? { base } : {}),
  };
}

/** The bytes before the first newline, read in growing chunks; null when unreadable or without one. */
async function readFirstLine(file: string): Promise<Buffer | null> {
  let handle: FileHandle | undefined;
  try {
    // Never through a symlink, never waiting on a FIFO; only a regular file is read.
    handle = await open(file, CACHE_READ);
    if (!(await handle.stat()).isFile()) return null;
    const chunks: Buffer[] = [];
    let size = 1 << 20;
    for (;;) {
      const chunk = Buffer.allocUnsafe(size);
      const { bytesRead } = await handle.read(chunk, 0, size, null);
      if (bytesRead === 0) return null;
      const newline = chunk.subarray(0, bytesRead).indexOf(10);
      if (newline !== -1) {
        chunks.push(chunk.subarray(0, newline));
        return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
      }
      chunks.push(chunk.subarray(0, bytesRead));
      size = Math.min(size * 2, 16 << 20);
    }
  } catch {
    return null;
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

function parseOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

const stringOrNull = (value: unknown): boolean => value === null || typeof value === 'string';

function isHead(value: unknown, url: string): value is CacheMeta & { summary: IndexSummary } {
  return (
    isPlainObject(value) &&
    value['cacheVersion'] === INDEX_CACHE_VERSION &&
    value['url'] === url &&
    stringOrNull(value['etag']) &&
    stringOrNull(value['validator']) &&
    typeof value['fetchedAt'] === 'string' &&
    isSummary(value['summary']) &&
    (value['excluded'] === undefined || isExcluded(value['excluded']))
  );
}

function isExcluded(value: unknown): value is ExcludedEntry[] {
  return (
    Array.isArray(value) &&
    value.every(
      (e) =>
        isPlainObject(e) &&
        stringOrNull(e['name']) &&
        typeof e['message'] === 'string' &&
        (e['code'] === undefined || typeof e['code'] === 'string') &&
        (e['hint'] === undefined || typeof e['hint'] === 'string'),
    )
  );
}

/** Rows are strings (index-summary.ts); readRow rejects a string of the wrong shape. */
function isSummary(value: unknown): value is IndexSummary {
  if (!Array.isArray(value)) return false;
  for (let i = 0; i < value.length; i += 1) if (typeof value[i] !== 'string') return false;
  return true;
}

function isIndexShape(value: unknown): value is RegistryIndex {
  return isPlainObject(value) && value['formatVersion'] === 1 && isPlainObject(value['plugins']);
}
