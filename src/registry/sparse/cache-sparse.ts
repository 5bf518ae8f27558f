/**
 * The cache of a sparse registry (registry.md N11, D1: `<cache>/indexes/.sparse/<registry>/`; it
 * may be deleted at any time without loss). Each fetched document is two files: `<path>` holds its
 * bytes as served (decoded), `<path>.meta` where they came from, how to revalidate them and a
 * checksum of the bytes, so a 304 rewrites only the small `.meta` file. The two files are replaced
 * one after the other, so a process killed between them, or two processes writing the same
 * document at once, can leave the bytes of one response beside the ETag of another: the checksum
 * makes such a pair count as absent (a 304 would otherwise confirm the wrong bytes for good). A
 * search shard is kept as its summary rows (`search/<page>.rows`, with the hash the manifest gave
 * it), so a search reads no JSON documents.
 * Only documents that passed their parser are written here, by hookpm alone; a file that fails the
 * envelope check counts as absent, and so does one that is not a regular file of bounded size (D7:
 * a symlink is never read through, a FIFO never waited on).
 */
import type { Stats } from 'node:fs';
import { lstat, mkdir, readdir, rm, unlink } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { HookpmError } from '../../errors.js';
import { isPlainObject } from '../../json/describe-value.js';
import { clip } from '../../text/clip.js';
import { errnoCode, toStoreError } from '../../io/fs-error.js';
import { isProcessAlive } from '../../io/process-alive.js';
import { readRegularFile } from '../../io/read-regular-file.js';
import { sameOrigin } from '../http/read-base.js';
import { INDEX_MAX_BYTES } from '../http/fetch-options.js';
import { INDEX_CACHE_MAX_BYTES } from '../indexes/cache-index.js';
import { fnv1a } from '../../text/fnv1a.js';

export interface DocumentMeta {
  /** The URL the document was read from; a copy for another URL is never used. */
  url: string;
  etag: string | null;
  /** When the copy was last confirmed current (ISO time). */
  fetchedAt: string;
  /**
   * The URL the bytes were read from when a same-origin redirect led away from `url` (what they
   * resolve relative references against); absent when it is `url`.
   */
  base?: string;
}

export interface CachedDocument extends DocumentMeta {
  body: Buffer;
}

/** 2: `.meta` names its document's bytes by `sum` (version 1's files are fetched again). */
const META_VERSION = 2;
/** A `.meta` file holds a URL, an ETag and a time: far less than this. */
const META_MAX_BYTES = 1 << 20;

/** The cache folder of one sparse registry. */
export function sparseCacheDir(indexCacheDir: string, registry: string): string {
  return join(indexCacheDir, '.sparse', registry);
}

export async function removeSparseCache(indexCacheDir: string, registry: string): Promise<void> {
  await rm(sparseCacheDir(indexCacheDir, registry), { recursive: true, force: true });
}

export async function readCachedDocument(
  dir: string,
  path: string,
  url: string,
): Promise<CachedDocument | null> {
  const meta = await readMeta(dir, path, url);
  if (meta === null) return null;
  const body = readCached(join(dir, path), INDEX_MAX_BYTES);
  if (body === null || bodySum(body) !== meta.sum) return null;
  const { etag, fetchedAt, base } = meta;
  return { url, etag, fetchedAt, ...(base === undefined ? {} : { base }), body };
}

async function readMeta(
  dir: string,
  path: string,
  url: string,
): Promise<(DocumentMeta & { sum: string }) | null> {
  const text = readCached(join(dir, `${path}.meta`), META_MAX_BYTES)?.toString('utf8') ?? null;
  const meta = text === null ? null : parseOrNull(text);
  if (
    !isPlainObject(meta) ||
    meta['v'] !== META_VERSION ||
    meta['url'] !== url ||
    !(meta['etag'] === null || typeof meta['etag'] === 'string') ||
    typeof meta['fetchedAt'] !== 'string' ||
    typeof meta['sum'] !== 'string'
  )
    return null;
  const { etag, fetchedAt, sum } = meta as { etag: string | null; fetchedAt: string; sum: string };
  const base = meta['base'];
  if (base !== undefined && (typeof base !== 'string' || !sameOrigin(base, url))) return null;
  return { url, etag, fetchedAt, sum, ...(base === undefined ? {} : { base }) };
}

/**
 * The checksum of a document's bytes that its `.meta` records: it tells the bytes of one response
 * from those of another, not a forgery (whoever can write the cache can write both files).
 */
function bodySum(body: Buffer): string {
  return fnv1a(body.toString('latin1'));
}

/** Stores a checked document: the body first, then its `.meta` (D2 write discipline). */
export async function writeCachedDocument(
  dir: string,
  path: string,
  doc: CachedDocument,
): Promise<void> {
  const { writeFileDurable } = await import('../../io/durable-write.js');
  const file = join(dir, path);
  await inCache(dir, async () => {
    await ensureDir(dir, dirname(file));
    await sweepTemporaryFiles(dirname(file));
    await writeFileDurable(file, doc.body);
  });
  await writeMeta(dir, path, doc);
}

/**
 * After a 304: only the `.meta` file changes, still naming the bytes `doc` was read with.
 * Owner-only (0600): its URL may hold credentials (N5).
 */
export async function writeMeta(dir: string, path: string, doc: CachedDocument): Promise<void> {
  const { writeFileDurable } = await import('../../io/durable-write.js');
  const file = join(dir, `${path}.meta`);
  const { url, etag, fetchedAt, base } = doc;
  const meta = {
    v: META_VERSION,
    url,
    etag,
    fetchedAt,
    ...(base === undefined ? {} : { base }),
    sum: bodySum(doc.body),
  };
  await inCache(dir, async () => {
    await ensureDir(dir, dirname(file));
    await sweepTemporaryFiles(dirname(file));
    await writeFileDurable(file, `${JSON.stringify(meta)}\n`, { mode: 0o600 });
  });
}

/** The cache file name of a search page: its manifest path, `/` as `+` (never in a path, N8). */
function rowsFile(dir: string, path: string): string {
  return join(dir, 'search', `${path.replaceAll('/', '+')}.rows`);
}

/** A search page's rows, if cached under this hash. */
export async function readCachedRows(
  dir: string,
  path: string,
  hash: string,
): Promise<string[] | null> {
  const text = readCached(rowsFile(dir, path), INDEX_CACHE_MAX_BYTES)?.toString('utf8') ?? null;
  const value = text === null ? null : parseOrNull(text);
  if (!isPlainObject(value) || value['hash'] !== hash || !Array.isArray(value['rows'])) return null;
  const rows = value['rows'] as unknown[];
  return rows.every((r) => typeof r === 'string') ? (rows as string[]) : null;
}

export async function writeCachedRows(
  dir: string,
  path: string,
  hash: string,
  rows: readonly string[],
): Promise<void> {
  const { writeFileDurable } = await import('../../io/durable-write.js');
  await inCache(dir, async () => {
    await ensureDir(dir, join(dir, 'search'));
    await sweepTemporaryFiles(join(dir, 'search'));
    await writeFileDurable(rowsFile(dir, path), JSON.stringify({ hash, rows }));
  });
}

/** Removes cached search pages whose paths the manifest no longer lists. */
export async function pruneCachedRows(dir: string, keep: readonly string[]): Promise<void> {
  const kept = new Set(keep.map((path) => rowsFile(dir, path)));
  // Only a folder of the cache is pruned: a symlink in its place may lead to the user's files.
  const real = await realFolder(dir, join(dir, 'search'));
  const names = real ? await readdir(join(dir, 'search')).catch(() => [] as string[]) : [];
  for (const name of names)
    if (name.endsWith('.rows') && !kept.has(join(dir, 'search', name)))
      await unlink(join(dir, 'search', name)).catch(() => undefined);
}

/**
 * A temporary file younger than this is left alone even when its writer is not running here: the
 * cache may be shared with another host (a home folder on a network drive), whose pids mean nothing
 * here. A write takes milliseconds (writeFileDurable is one synchronous call).
 */
const TEMPORARY_SETTLE_MS = 60_000;
/** A temporary file older than this is abandoned whoever has its pid now (pids are reused). */
const TEMPORARY_ABANDONED_MS = 60 * 60_000;
/** The cache folders swept by this process (sweepTemporaryFiles). */
const swept = new Set<string>();

/**
 * Removes from the cache folder `folder` the temporary files of writes that were killed (D2):
 * those more than a minute old whose writer is no longer running on this host, and any more than
 * an hour old. Once per folder per process, when a write into it begins, never throws, and never
 * follows a symlink (only regular files are removed). Swept here rather than by a walk of the
 * cache on some command: a write killed midway left its document uncached, so the next command
 * that needs the document fetches it again and writes into that very folder (one folder read,
 * which the write's own folder check has just looked at); a folder never written again is that
 * of a document no command needs, removed with the registry (`registry remove`).
 */
async function sweepTemporaryFiles(folder: string): Promise<void> {
  if (swept.has(folder)) return;
  swept.add(folder);
  const { anyDurableTempWriter } = await import('../../io/durable-write.js');
  const names = await readdir(folder).catch(() => [] as string[]);
  const now = Date.now();
  for (const name of names) {
    const pid = anyDurableTempWriter(name);
    if (pid === null) continue;
    const file = join(folder, name);
    const stat = await lstat(file).catch(() => null);
    if (stat === null || !stat.isFile()) continue;
    const age = now - stat.mtimeMs;
    const dead = age >= TEMPORARY_SETTLE_MS && !isProcessAlive(pid);
    if (dead || age >= TEMPORARY_ABANDONED_MS) await unlink(file).catch(() => undefined);
  }
}

/**
 * Runs a write into the cache folder `dir`. A failure that is neither a full disk nor a read-only
 * store (E_IO: a folder where a file goes, a file where a folder goes) gets a fix: the folder is a
 * cache, so deleting it loses nothing.
 */
async function inCache(dir: string, write: () => Promise<void>): Promise<void> {
  try {
    await write();
  } catch (error) {
    if (!(error instanceof HookpmError) || error.code !== 'E_IO' || error.hint !== undefined)
      throw error;
    throw new HookpmError(error.code, error.message, {
      ...error.details,
      hint: `Delete ${clip(dir)}, the registry's cache (what it holds is fetched again), then run the command again.`,
    });
  }
}

/**
 * Makes `folder`, inside the cache folder `dir` (or `dir` itself), one folder at a time, none
 * reached through a symlink (D7): a symlink in the cache may lead anywhere, and nothing is made or
 * written through one (E_IO, inCache gives the fix).
 */
async function ensureDir(dir: string, folder: string): Promise<void> {
  await mkdir(dir, { recursive: true }).catch((error: unknown) => {
    throw toStoreError(error, dir, 'write');
  });
  for await (const [at, found] of foldersTo(dir, folder)) {
    // Writes of one command run concurrently: a folder another write made between the lstat and
    // the mkdir is looked at again, as if it had been there.
    const stat = found ?? (await makeFolder(at));
    if (stat !== null && (stat.isSymbolicLink() || !stat.isDirectory()))
      throw new HookpmError(
        'E_IO',
        `cannot write ${clip(at)}: it is not a folder (a symlink or a file)`,
        { file: at },
      );
  }
}

/** Makes the folder `at`; null when made, or what lstat says of what is there already. */
async function makeFolder(at: string): Promise<Stats | null> {
  try {
    await mkdir(at);
    return null;
  } catch (error) {
    const there = errnoCode(error) === 'EEXIST' ? await lstat(at).catch(() => null) : null;
    if (there === null) throw toStoreError(error, at, 'write');
    return there;
  }
}

/** Whether `dir` and each folder from it down to `folder` is a folder, not a symlink. */
async function realFolder(dir: string, folder: string): Promise<boolean> {
  for await (const [, stat] of foldersTo(dir, folder))
    if (stat === null || !stat.isDirectory()) return false;
  return true;
}

/** `dir`, then each folder below it down to `folder`, with what lstat says of it (null: none). */
async function* foldersTo(dir: string, folder: string): AsyncGenerator<[string, Stats | null]> {
  let at = dir;
  for (const step of ['', ...stepsTo(dir, folder)]) {
    at = join(at, step);
    yield [at, await lstat(at).catch(() => null)];
  }
}

function stepsTo(dir: string, folder: string): string[] {
  return relative(dir, folder)
    .split(sep)
    .filter((step) => step !== '');
}

/**
 * The bytes of a cache file, or null when it is missing, unreadable, or not a regular file of at
 * most `maxBytes` (D7: the open never follows a final symlink and never waits on a FIFO).
 */
function readCached(file: string, maxBytes: number): Buffer | null {
  try {
    return readRegularFile(file, { maxBytes });
  } catch {
    return null;
  }
}

function parseOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
