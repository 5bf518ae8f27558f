/**
 * Loading a sparse registry (registry.md N11) document by document, under the freshness policy of
 * load-index.ts applied to each document on its own: a cached document is used as it is for
 * INDEX_MAX_AGE_MS after it was last confirmed, then revalidated with If-None-Match (a 304 rewrites
 * only its metadata); `refresh` revalidates now; `cacheOnly` never touches the network; an
 * unreachable registry falls back to a stale cached copy (`stale`). A `file:` registry is read
 * from disk every time and never cached. Requests ask for gzip.
 *
 * `registry add` reads the root only; install and info read the root and the named plugins'
 * documents; search reads the search manifest and the shards whose hash changed.
 */
import { HookpmError, isHookpmError } from '../../errors.js';
import { INDEX_DEADLINE_MS } from '../http/fetch-options.js';
import type { IndexOrigin, LoadIndexOptions } from '../indexes/load-index.js';
import type { IndexPlugin, RegistryIndex } from '../indexes/index-schema.js';
import { writeRow, type IndexSummary } from '../indexes/summary-row.js';
import { redactUrl } from '../http/url-policy.js';
import { indexUrlOf, isSparseRootUrl } from '../registry-location.js';
import {
  readCachedRows,
  pruneCachedRows,
  sparseCacheDir,
  writeCachedRows,
} from './cache-sparse.js';
import {
  parseRoot,
  parseSearchManifest,
  parseSearchShard,
  pluginDocumentPath,
  ROOT_FILE,
  type SparseRoot,
} from './sparse-format.js';
import {
  documentJson,
  fetchOptions,
  loadSparseDocument,
  type SparseDocument,
} from './load-sparse-document.js';

export interface SparseLoad {
  registry: string;
  root: SparseRoot;
  /**
   * The root document's URL, after any same-origin redirect: the plugin documents, the search
   * manifest and relative tarball locations resolve against it.
   */
  url: string;
  origin: IndexOrigin;
  fetchedAt: string;
  stale: { code: string; message: string } | null;
}

interface Registry {
  name: string;
  location: string;
}

/**
 * The root document of `registry` when it has the sparse layout, else null (load its `index.json`).
 * A location naming the root (`.../registry.json`, as `registry add` stores it) is sparse: a
 * missing root is an error. A local directory is sparse when it holds `registry.json` (a file
 * read, no request). A base URL is read through its `index.json`: no request is spent on asking it
 * for a root it may not have.
 */
export async function loadSparseRoot(
  registry: Registry,
  opts: LoadIndexOptions,
): Promise<SparseLoad | null> {
  const declared = isSparseRootUrl(registry.location);
  const indexUrl = indexUrlOf(registry.location);
  if (!declared && !indexUrl.startsWith('file:')) return null;
  const url = declared ? registry.location : new URL(ROOT_FILE, indexUrl).href;
  const dir = sparseCacheDir(opts.cacheDir, registry.name);
  let doc: SparseDocument | null;
  try {
    const where = redactUrl(url);
    doc = await loadSparseDocument(dir, ROOT_FILE, url, opts, (body) =>
      parseRoot(documentJson(body, url), where),
    );
  } catch (error) {
    if (!declared && isHookpmError(error, 'E_NOT_FOUND')) return null;
    throw error;
  }
  if (doc === null) {
    if (!declared) return null;
    const { networkRefused } = await import('../network-refused.js');
    throw networkRefused(
      `no cached root document for the registry ${registry.name} (${redactUrl(url)})`,
      { registry: registry.name, url: redactUrl(url) },
      `Run \`hookpm registry update ${registry.name}\` while online first.`,
    );
  }
  const root = parseRoot(documentJson(doc.body, url), redactUrl(url));
  const { origin, fetchedAt, stale } = doc;
  return { registry: registry.name, root, url: doc.base, origin, fetchedAt, stale };
}

/**
 * The documents of the named plugins, as an index holding those the registry lists (a name it
 * does not list is left out: its document is 404). At most 8 are fetched at once. Without the
 * network (D5), a plugin whose document is not cached is E_OFFLINE.
 */
export async function loadSparsePlugins(
  sparse: SparseLoad,
  names: readonly string[],
  opts: LoadIndexOptions,
): Promise<{ index: RegistryIndex; origin: IndexOrigin }> {
  const dir = sparseCacheDir(opts.cacheDir, sparse.registry);
  const { parsePluginDocument } = await import('./sparse-plugin.js');
  const plugins: Record<string, IndexPlugin> = {};
  let origin: IndexOrigin = sparse.origin;
  await eachLimited([...new Set(names)], 8, async (name) => {
    const path = `plugins/${pluginDocumentPath(name)}`;
    const url = new URL(`${sparse.root.plugins}${pluginDocumentPath(name)}`, sparse.url).href;
    const parse = (body: Buffer): IndexPlugin =>
      parsePluginDocument(documentJson(body, url), name, redactUrl(url));
    let doc: SparseDocument | null;
    try {
      doc = await loadSparseDocument(dir, path, url, opts, parse);
    } catch (error) {
      if (isHookpmError(error, 'E_NOT_FOUND')) return;
      throw error;
    }
    if (doc === null) {
      const { networkRefused } = await import('../network-refused.js');
      throw networkRefused(
        `no cached document for ${name} in the registry ${sparse.registry} (${redactUrl(url)})`,
        { registry: sparse.registry, plugin: name, url: redactUrl(url) },
        `Run the command again online once; its document is then cached.`,
      );
    }
    plugins[name] = parse(doc.body);
    if (doc.origin !== 'cache') origin = doc.origin;
  });
  const { name, description } = sparse.root;
  const index: RegistryIndex = {
    formatVersion: 1,
    ...(name === undefined ? {} : { name }),
    ...(description === undefined ? {} : { description }),
    plugins,
  };
  return { index, origin };
}

/**
 * The search summary (summary-row.ts rows): the manifest under the document policy, then every
 * shard whose cached rows do not carry the manifest's hash for it (N8: shards are addressed by
 * hash, so an unchanged shard is never asked for again). The manifest and all the pages share one
 * deadline, the one fetch of an `index.json` has (`opts.fetch.deadlineMs`): each request is given
 * what is left of it, so pages that each arrive a byte at a time end the search at that deadline
 * (E_REGISTRY_TIMEOUT naming the registry), not at a deadline per page. Pages read by then stay
 * cached, and are not asked for again. Without the network (D5), a page whose rows are not cached
 * (a search cut short, a cache partly deleted) is left out, and `partial` says how many were.
 */
export async function loadSparseSummary(
  sparse: SparseLoad,
  opts: LoadIndexOptions,
): Promise<{ summary: IndexSummary; origin: IndexOrigin; partial: PartialSearch | null }> {
  const dir = sparseCacheDir(opts.cacheDir, sparse.registry);
  const url = new URL(sparse.root.search, sparse.url).href;
  const budget = opts.fetch?.deadlineMs ?? INDEX_DEADLINE_MS;
  const ends = performance.now() + budget;
  let read = 0;
  let total = 0;
  /** `opts` with what is left of the deadline as the next request's, or the search's timeout. */
  const inTime = (): LoadIndexOptions => {
    const left = Math.floor(ends - performance.now());
    if (left <= 0) throw searchTimeout(sparse.registry, url, budget, read, total);
    return { ...opts, fetch: { ...opts.fetch, deadlineMs: left } };
  };
  /** A request's deadline that passed is the search's. */
  const timedOut = (error: unknown): never => {
    if (isHookpmError(error, 'E_REGISTRY_TIMEOUT') && error.details['limit'] !== undefined)
      throw searchTimeout(sparse.registry, url, budget, read, total);
    throw error;
  };
  const parse = (body: Buffer) => parseSearchManifest(documentJson(body, url), redactUrl(url));
  const doc = await loadSparseDocument(dir, 'search/index.json', url, inTime(), parse).catch(
    timedOut,
  );
  if (doc === null) {
    // D5: offline and never cached; load-catalogs turns this into a warning for this registry.
    const { networkRefused } = await import('../network-refused.js');
    throw networkRefused(
      `no cached search manifest for the registry ${sparse.registry} (${redactUrl(url)})`,
      { registry: sparse.registry, url: redactUrl(url) },
      'Run `hookpm search` once while online; its manifest is then cached.',
    );
  }
  const manifest = parse(doc.body);
  total = manifest.shards.length;
  let origin = doc.origin;
  const parts: string[][] = new Array<string[]>(manifest.shards.length);
  let missing = 0;
  await eachLimited(
    manifest.shards.map((s, i) => ({ ...s, i })),
    8,
    async (shard) => {
      const cached = await readCachedRows(dir, shard.path, shard.hash);
      if (cached !== null || opts.cacheOnly) {
        parts[shard.i] = cached ?? [];
        if (cached === null) missing += 1;
        return;
      }
      const shardUrl = new URL(shard.path, doc.base).href;
      const { fetchBytes } = await import('../http/http.js');
      const result = await fetchBytes(shardUrl, fetchOptions(inTime(), undefined)).catch(timedOut);
      if (result.status === 304) throw new Error('Assertion failed: 304 without an ETag');
      const parsed = parseSearchShard(documentJson(result.body, shardUrl), redactUrl(shardUrl));
      const rows = parsed.plugins.map(writeRow);
      const { hashOf } = await import('./sparse-documents.js');
      // A shard rebuilt since the manifest was read is kept under its own hash: asked again later.
      await writeCachedRows(dir, shard.path, hashOf(result.body), rows);
      parts[shard.i] = rows;
      read += 1;
      origin = 'network';
    },
  );
  await pruneCachedRows(
    dir,
    manifest.shards.map((s) => s.path),
  );
  const partial = missing === 0 ? null : partialSearch(sparse.registry, missing, total);
  return { summary: parts.flat(), origin, partial };
}

/** What a search without the network left out of a registry: a warning's code, words and fix. */
export interface PartialSearch {
  code: string;
  message: string;
  hint: string;
}

function partialSearch(registry: string, missing: number, total: number): PartialSearch {
  return {
    code: 'E_OFFLINE',
    message: `${missing} of ${total} search page(s) of the registry ${registry} are not cached: its results are partial.`,
    hint: `Run \`hookpm search\` once while online; the pages it reads are then cached.`,
  };
}

/** The search of `registry` did not end within its deadline of `budget` ms (loadSparseSummary). */
function searchTimeout(
  registry: string,
  url: string,
  budget: number,
  read: number,
  total: number,
): HookpmError {
  return new HookpmError(
    'E_REGISTRY_TIMEOUT',
    `searching the registry ${registry} (${redactUrl(url)}) did not finish within the deadline of ${budget} ms: ${read} of ${total} search page(s) fetched`,
    {
      registry,
      url: redactUrl(url),
      limit: budget,
      hint: `The registry ${registry} answers too slowly. Run the search again (the pages fetched are cached and not asked for again), search what is cached with --offline, or remove it: hookpm registry remove ${registry}.`,
    },
  );
}

/**
 * Runs `work` on each item, at most `limit` at once. Rejects with the first failure, after which
 * no item is started: the others in flight end, and a long-lived host (`hookpm session`) fetches
 * nothing more for a result it has already refused.
 */
async function eachLimited<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (!failed && next < items.length) {
      const item = items[next] as T;
      next += 1;
      try {
        await work(item);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
