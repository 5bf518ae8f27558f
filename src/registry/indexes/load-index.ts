/**
 * Loading a registry's index (registry.md N4, I2, D5) from the cache, the disk or the network.
 *
 * Freshness policy:
 * - a `file:` index (a local registry directory) is re-read whenever its size, mtime or inode
 *   differ from the cached copy's validator, and served from the cache otherwise;
 * - a network index is served from the cache for INDEX_MAX_AGE_MS after it was last confirmed,
 *   then revalidated with If-None-Match (a 304 only renews the confirmation time);
 * - a network index whose registry cannot be reached (E_REGISTRY_NETWORK, E_REGISTRY_TIMEOUT)
 *   is served from a stale cached copy, and the result says so (`stale`);
 * - `refresh` (registry add, registry update) skips both checks: always re-read or revalidate,
 *   and a failure is an error;
 * - `cacheOnly` (D5: the network is off) never touches the network: a network index comes from
 *   the cache whatever its age (`E_OFFLINE` when there is none; its origin is `cache`); a `file:`
 *   index is read as usual.
 * A fetched index is parsed and checked as a whole before it replaces the cached copy, so a bad
 * one (HTML, truncated JSON, a schema error) leaves the cache byte-identical.
 */
import { stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { HookpmError, isHookpmError } from '../../errors.js';
import { readCachedHead, readCachedIndex, writeCachedIndex } from './cache-index.js';
import type { CacheMeta } from './cache-index.js';
import { INDEX_MAX_BYTES } from '../http/fetch-options.js';
import type { FetchOptions } from '../http/fetch-options.js';
import type { RegistryIndex } from './index-schema.js';
import type { IndexSummary } from './index-summary.js';
import { indexUrlOf } from '../registry-location.js';
import { baseOf, redirectedTo } from '../http/read-base.js';
import { redactUrl } from '../http/url-policy.js';
import { networkRefused } from '../network-refused.js';

/** How long a network index is used without asking the registry again. */
export const INDEX_MAX_AGE_MS = 10 * 60 * 1000;

export interface LoadIndexOptions {
  /** `<cache>/indexes`. */
  cacheDir: string;
  cacheOnly: boolean;
  refresh: boolean;
  maxAgeMs?: number;
  now?: () => Date;
  onProgress?: (received: number, total: number | null) => void;
  /** Timeouts and retries of the fetch (defaults of http.ts otherwise). */
  fetch?: Pick<
    FetchOptions,
    'retries' | 'retryBaseDelayMs' | 'deadlineMs' | 'headersTimeoutMs' | 'connectTimeoutMs'
  >;
}

/** `cache`: the cached copy as it was; `not-modified`: after a 304; `network`: a new 200; `disk`: a re-read file. */
export type IndexOrigin = 'cache' | 'not-modified' | 'network' | 'disk';

export interface LoadedSummary {
  summary: IndexSummary;
  /** The index URL, or where a same-origin redirect led from it: tarballs resolve against it. */
  url: string;
  origin: IndexOrigin;
  fetchedAt: string;
  /**
   * Set when a stale cached copy was used because the registry could not be reached
   * (E_REGISTRY_NETWORK, E_REGISTRY_TIMEOUT): that error. Never with `refresh`.
   */
  stale: { code: string; message: string } | null;
}

export interface LoadedIndex extends LoadedSummary {
  index: RegistryIndex;
}

interface Registry {
  name: string;
  location: string;
}

/** The whole index, checked (from the cache, or fetched and checked now). */
export async function loadIndex(registry: Registry, opts: LoadIndexOptions): Promise<LoadedIndex> {
  const url = indexUrlOf(registry.location);
  const cached = await readCachedIndex(opts.cacheDir, registry.name, url);
  const reuse = await reusable(registry.name, url, cached, opts);
  if (reuse !== null && cached !== null)
    return { ...reuse, index: cached.index, summary: cached.summary };
  const fallback = cached && { index: cached.index, summary: cached.summary };
  return fetchOrStale(registry.name, url, cached, opts, fallback);
}

/** The search projection only: a usable cached copy is used without reading its index line. */
export async function loadIndexSummary(
  registry: Registry,
  opts: LoadIndexOptions,
): Promise<LoadedSummary> {
  const url = indexUrlOf(registry.location);
  const cached = await readCachedHead(opts.cacheDir, registry.name, url);
  const reuse = await reusable(registry.name, url, cached, opts);
  if (reuse !== null && cached !== null) return { ...reuse, summary: cached.summary };
  const fallback = cached && { summary: cached.summary };
  const loaded = await fetchOrStale(registry.name, url, cached, opts, fallback);
  const { summary, origin, fetchedAt, stale } = loaded;
  return { summary, url: loaded.url, origin, fetchedAt, stale };
}

type Reuse = Omit<LoadedSummary, 'summary'>;

const UNREACHABLE = new Set(['E_REGISTRY_NETWORK', 'E_REGISTRY_TIMEOUT']);

/** fetchIndex; when the registry cannot be reached, the stale cached copy (`fallback`) if there is one. */
async function fetchOrStale<T extends { summary: IndexSummary }>(
  name: string,
  url: string,
  cached: CacheMeta | null,
  opts: LoadIndexOptions,
  fallback: T | null,
): Promise<LoadedIndex | (Reuse & T)> {
  try {
    return await fetchIndex(name, url, cached, opts);
  } catch (error) {
    const usable = fallback !== null && cached !== null && !opts.refresh;
    if (!usable || !isHookpmError(error) || !UNREACHABLE.has(error.code)) throw error;
    const stale = { code: error.code, message: error.message };
    return { ...fallback, ...fromCache(url, cached), stale };
  }
}

/** The cached copy's description when it may be used as it is, else null (fetch it). */
async function reusable(
  name: string,
  url: string,
  cached: CacheMeta | null,
  opts: LoadIndexOptions,
): Promise<Reuse | null> {
  if (url.startsWith('file:')) {
    if (cached === null || opts.refresh) return null;
    const validator = await fileValidator(url);
    return validator !== null && cached.validator === validator ? fromCache(url, cached) : null;
  }
  if (opts.cacheOnly) {
    if (cached !== null) return fromCache(url, cached);
    throw networkRefused(
      `no cached index for the registry ${name} (${redactUrl(url)})`,
      { registry: name, url: redactUrl(url) },
      `Run \`hookpm registry update ${name}\` while online first.`,
    );
  }
  if (cached === null || opts.refresh) return null;
  const age = nowOf(opts).getTime() - Date.parse(cached.fetchedAt);
  const fresh = age >= 0 && age < (opts.maxAgeMs ?? INDEX_MAX_AGE_MS);
  return fresh ? fromCache(url, cached) : null;
}

/** The cached copy as it is used: its base (where a redirect led from `url`), when it was read. */
function fromCache(url: string, cached: CacheMeta): Reuse {
  return {
    url: baseOf(url, cached.base),
    origin: 'cache',
    fetchedAt: cached.fetchedAt,
    stale: null,
  };
}

/** Fetches (conditionally, with the ETag of `cached`) or re-reads the index and caches it. */
async function fetchIndex(
  name: string,
  url: string,
  cached: CacheMeta | null,
  opts: LoadIndexOptions,
): Promise<LoadedIndex> {
  const isFile = url.startsWith('file:');
  const validator = isFile ? await fileValidator(url) : null;
  const etag = isFile ? null : (cached?.etag ?? null);
  const { fetchBytes } = await import('../http/http.js');
  const result = await fetchBytes(url, {
    ...opts.fetch,
    purpose: 'index',
    maxBytes: INDEX_MAX_BYTES,
    acceptGzip: true,
    ...(etag !== null ? { etag } : {}),
    ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
  });
  const fetchedAt = nowOf(opts).toISOString();
  if (result.status === 304) {
    const full = await readCachedIndex(opts.cacheDir, name, url);
    if (full === null || full.etag !== etag) return fetchIndex(name, url, null, opts);
    await writeCachedIndex(opts.cacheDir, name, { ...full, fetchedAt });
    const { index, summary } = full;
    const base = baseOf(url, full.base);
    return { url: base, origin: 'not-modified', fetchedAt, stale: null, index, summary };
  }
  const index = await decodeIndex(result.body, url);
  // After a same-origin redirect, relative tarball locations resolve against where it led.
  const read = redirectedTo(url, result.url);
  const meta = { url, etag: result.etag, validator, fetchedAt, ...(read ? { base: read } : {}) };
  const summary = await writeCachedIndex(opts.cacheDir, name, { ...meta, index });
  const origin = isFile ? 'disk' : 'network';
  return { url: baseOf(url, read), origin, fetchedAt, stale: null, index, summary };
}

/** Size, mtime and inode of a `file:` index; null when it cannot be stat'ed (the read then says why). */
async function fileValidator(url: string): Promise<string | null> {
  const info = await stat(fileURLToPath(url)).catch(() => null);
  return info === null ? null : `${info.size}:${info.mtimeMs}:${info.ino}`;
}

/** Bytes to a checked index (I1): E_REGISTRY_SCHEMA for anything but an index document. */
async function decodeIndex(body: Buffer, url: string): Promise<RegistryIndex> {
  const where = redactUrl(url);
  const [{ parseJson }, { parseIndex }] = await Promise.all([
    import('../../json/parse-json.js'),
    import('./index-schema.js'),
  ]);
  const json = parseJson(body.toString('utf8'), where);
  if (!json.ok) {
    // A file on disk is never quoted (docs/reference/rules/registry.md#j3): it may be any file.
    const start = url.startsWith('file:')
      ? ''
      : ` (it starts with ${JSON.stringify(body.subarray(0, 40).toString('utf8'))})`;
    throw new HookpmError(
      'E_REGISTRY_SCHEMA',
      `${where} is not a JSON index: ${json.message} at ${json.line}:${json.column}${start}`,
      {
        url: where,
        hint: 'The registry serves something other than an index; the cached copy, if any, is kept.',
      },
    );
  }
  return parseIndex(json.value, where);
}

function nowOf(opts: LoadIndexOptions): Date {
  return opts.now?.() ?? new Date();
}
