/**
 * One document of a sparse registry (registry.md N11) under load-sparse.ts's freshness policy:
 * the cached copy while it is fresh, revalidated with If-None-Match after (a 304 rewrites only
 * its metadata), a stale copy when the registry is unreachable, never cached for `file:`.
 */
import { HookpmError, isHookpmError } from '../../errors.js';
import { parseJson } from '../../json/parse-json.js';
import { INDEX_MAX_BYTES } from '../http/fetch-options.js';
import { baseOf, redirectedTo } from '../http/read-base.js';
import { redactUrl } from '../http/url-policy.js';
import {
  INDEX_MAX_AGE_MS,
  type IndexOrigin,
  type LoadIndexOptions,
} from '../indexes/load-index.js';
import {
  readCachedDocument,
  writeCachedDocument,
  writeMeta,
  type CachedDocument,
} from './cache-sparse.js';

/** A document as loaded, with where it came from. */
export interface SparseDocument {
  body: Buffer;
  /**
   * What relative references in `body` resolve against: the URL it was read from, after any
   * same-origin redirect (RFC 3986 section 5.1.3), with the credentials of the URL asked for.
   */
  base: string;
  origin: IndexOrigin;
  fetchedAt: string;
  stale: { code: string; message: string } | null;
}

const UNREACHABLE = new Set(['E_REGISTRY_NETWORK', 'E_REGISTRY_TIMEOUT']);

/**
 * One document: the cached copy, a revalidated one, or a new one that
 * `check` accepted (it throws for a bad one, which then never enters the cache). Null only when
 * `cacheOnly` and nothing is cached.
 */
export async function loadSparseDocument(
  dir: string,
  path: string,
  url: string,
  opts: LoadIndexOptions,
  check: (body: Buffer) => unknown,
): Promise<SparseDocument | null> {
  const now = (opts.now?.() ?? new Date()).toISOString();
  if (url.startsWith('file:')) {
    const { fetchBytes } = await import('../http/http.js');
    const result = await fetchBytes(url, fetchOptions(opts, undefined));
    if (result.status === 304) throw new Error('Assertion failed: 304 for a file');
    return { body: result.body, base: url, origin: 'disk', fetchedAt: now, stale: null };
  }
  const cached = await readCachedDocument(dir, path, url);
  if (cached !== null && !opts.refresh) {
    const age = Date.parse(now) - Date.parse(cached.fetchedAt);
    const fresh = age >= 0 && age < (opts.maxAgeMs ?? INDEX_MAX_AGE_MS);
    if (opts.cacheOnly || fresh) return fromCache(cached, null);
  }
  if (opts.cacheOnly) {
    if (cached !== null) return fromCache(cached, null);
    return null;
  }
  try {
    return await revalidate(dir, path, url, cached, opts, check, now);
  } catch (error) {
    if (cached === null || opts.refresh) throw error;
    if (!isHookpmError(error) || !UNREACHABLE.has(error.code)) throw error;
    return fromCache(cached, { code: error.code, message: error.message });
  }
}

async function revalidate(
  dir: string,
  path: string,
  url: string,
  cached: CachedDocument | null,
  opts: LoadIndexOptions,
  check: (body: Buffer) => unknown,
  now: string,
): Promise<SparseDocument> {
  const { fetchBytes } = await import('../http/http.js');
  const etag = cached?.etag ?? undefined;
  const result = await fetchBytes(url, fetchOptions(opts, etag));
  if (result.status === 304 && cached !== null) {
    await writeMeta(dir, path, { ...cached, fetchedAt: now });
    const body = cached.body;
    return {
      body,
      base: baseOf(url, cached.base),
      origin: 'not-modified',
      fetchedAt: now,
      stale: null,
    };
  }
  if (result.status === 304) throw new Error('Assertion failed: 304 without a cached copy');
  check(result.body);
  const read = redirectedTo(url, result.url);
  await writeCachedDocument(dir, path, {
    url,
    etag: result.etag,
    fetchedAt: now,
    ...(read === undefined ? {} : { base: read }),
    body: result.body,
  });
  const base = baseOf(url, read);
  return { body: result.body, base, origin: 'network', fetchedAt: now, stale: null };
}

function fromCache(cached: CachedDocument, stale: SparseDocument['stale']): SparseDocument {
  const base = baseOf(cached.url, cached.base);
  return { body: cached.body, base, origin: 'cache', fetchedAt: cached.fetchedAt, stale };
}

/** The fetch options of a sparse document: gzip asked for, an index's size cap, the ETag. */
export function fetchOptions(opts: LoadIndexOptions, etag: string | undefined) {
  return {
    ...opts.fetch,
    purpose: 'index' as const,
    maxBytes: INDEX_MAX_BYTES,
    acceptGzip: true,
    ...(etag === undefined ? {} : { etag }),
  };
}

/**
 * JSON of a document, read as strictly as an index (parse-json.ts: a duplicate key, or nesting
 * past the depth cap, is an error, so no other reader of the bytes sees a value that was not
 * checked); E_REGISTRY_SCHEMA for anything else (never quoting a local file).
 */
export function documentJson(body: Buffer, url: string): unknown {
  const where = redactUrl(url);
  const parsed = parseJson(body.toString('utf8'), where);
  if (parsed.ok) return parsed.value;
  throw new HookpmError(
    'E_REGISTRY_SCHEMA',
    `${where} is not JSON: ${parsed.message} at ${parsed.line}:${parsed.column}`,
    {
      url: where,
      hint: 'The registry serves something other than a registry document; the cached copy, if any, is kept.',
    },
  );
}
