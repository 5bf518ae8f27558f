import { stat } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isHookpmError } from '../../../errors.js';
import {
  readCachedIndex,
  writeCachedIndex,
  type CachedIndex,
} from '../../../registry/indexes/cache-index.js';
import { gitRepositoryKind } from '../../../registry/git/git-repository-kind.js';
import type { RegistryIndex } from '../../../registry/indexes/index-schema.js';
import type { ExcludedEntry } from '../../../registry/marketplace/marketplace-schema.js';
import { INDEX_MAX_AGE_MS } from '../../../registry/indexes/load-index.js';
import { showLocation } from '../../../registry/registry-location.js';
import { indexCacheDir } from '../../../store/paths.js';
import type { RegistryEntry } from './defaults.js';
import { buildMarketplaceIndex } from './marketplace-index.js';
import { MARKETPLACE_FILE, readMarketplace } from './read-marketplace.js';
import { findCatalogFile } from '../../../registry/marketplace/read-catalog-file.js';
import type { Catalog, CatalogOptions } from './catalog-types.js';
import { environmentOf, type OperationContext } from '../context/operation-context.js';
import { networkAllowed } from '../context/network.js';
import { networkRefused } from '../../../registry/network-refused.js';

/** Failures that mean "cannot reach it now": a stale cached catalog is used instead (as for indexes). */
const UNREACHABLE = new Set(['E_GIT', 'E_REGISTRY_NETWORK', 'E_REGISTRY_TIMEOUT']);

/**
 * The catalog of a `marketplace` registry (docs/reference/rules/registry.md#registry-kinds): the
 * marketplace read (read-marketplace.ts) and turned into an index (marketplace-index.ts), cached
 * under `<cache>/indexes/<registry>.json` like an index, keyed `marketplace:<location>`. Freshness
 * follows load-index.ts:
 * - a marketplace read in place (a directory, or a `file:` URL of a directory that is not a git
 *   repository) is rebuilt when its marketplace.json's size, mtime or inode change; a change to a
 *   plugin directory alone is seen on `hookpm registry update` (installs always read it anew);
 * - a git repository or remote marketplace.json is reused for INDEX_MAX_AGE_MS (ctx.indexMaxAgeMs),
 *   then cloned or fetched again; when that fails with E_GIT or a network error, a stale cached
 * copy is used and the result says so; without the network only the cache (E_OFFLINE without one);
 * - `refresh` (registry add, registry update, install) always rebuilds, and a failure is an error.
 */
export async function loadMarketplaceCatalog(
  entry: RegistryEntry,
  ctx: OperationContext,
  opts: CatalogOptions,
): Promise<Catalog> {
  const location = entry.record.location;
  const key = marketplaceCacheKey(location);
  const cacheDir = indexCacheDir(ctx.paths);
  const indexUrl = indexUrlOfMarketplace(location);
  const file = await localMarketplaceFile(location);
  const cached = await readCachedIndex(cacheDir, entry.name, key);
  const fromCache = (c: CachedIndex, extra: Partial<Catalog> = {}): Catalog => ({
    registry: entry.name,
    kind: 'marketplace',
    index: c.index,
    summary: c.summary,
    indexUrl,
    origin: 'cache',
    fetchedAt: c.fetchedAt,
    cacheOnly: false,
    stale: null,
    excluded: c.excluded ?? [],
    ...extra,
  });
  const validator = file === null ? null : await fileValidator(file);
  if (file === null && !networkAllowed(ctx)) {
    if (cached !== null) return fromCache(cached, { cacheOnly: true });
    throw networkRefused(
      `no cached catalog for the marketplace ${entry.name} (${showLocation(location)})`,
      { registry: entry.name },
      `Run \`hookpm registry update ${entry.name}\` while online first.`,
    );
  }
  if (cached !== null && !opts.refresh) {
    if (file !== null && validator !== null && validator === cached.validator)
      return fromCache(cached);
    const age = now(ctx).getTime() - Date.parse(cached.fetchedAt);
    if (file === null && age >= 0 && age < (ctx.indexMaxAgeMs ?? INDEX_MAX_AGE_MS))
      return fromCache(cached);
  }
  try {
    const { index, excluded } = await readAndBuild(location, ctx);
    const fetchedAt = now(ctx).toISOString();
    const meta = { url: key, etag: null, validator, fetchedAt, excluded };
    const summary = await writeCachedIndex(cacheDir, entry.name, { ...meta, index });
    const built = { ...meta, index, summary };
    return fromCache(built, { origin: file === null ? 'network' : 'disk' });
  } catch (error) {
    if (opts.refresh || cached === null || !isHookpmError(error) || !UNREACHABLE.has(error.code))
      throw error;
    return fromCache(cached, { stale: { code: error.code, message: error.message } });
  }
}

/** The `url` a marketplace's cached catalog is recorded under: never an index URL. */
export function marketplaceCacheKey(location: string): string {
  return `marketplace:${location}`;
}

async function readAndBuild(
  location: string,
  ctx: OperationContext,
): Promise<{ index: RegistryIndex; excluded: ExcludedEntry[] }> {
  const { env, cwd } = environmentOf(ctx);
  const read = await readMarketplace(location, { cwd, env, paths: ctx.paths });
  try {
    return await buildMarketplaceIndex(read, { paths: ctx.paths, env, cwd });
  } finally {
    await read.dispose();
  }
}

/**
 * The marketplace.json a location is read from in place, or null when it is cloned or fetched
 * (read-marketplace.ts decides the same way: a `file:` URL of a git repository is cloned).
 */
async function localMarketplaceFile(location: string): Promise<string | null> {
  let path: string;
  if (/^file:/i.test(location)) {
    path = fileURLToPath(location);
    if (gitRepositoryKind(path) !== null) return null;
  } else if (isAbsolute(location)) path = location;
  else return null;
  const info = await stat(path).catch(() => null);
  if (info?.isFile() === true) return path;
  return findCatalogFile(path) ?? join(path, ...MARKETPLACE_FILE.split('/'));
}

/** What `hookpm info` (info.ts) resolves `tarball` against; a directory's URL ends in `/`. */
function indexUrlOfMarketplace(location: string): string {
  if (isAbsolute(location)) return `${pathToFileURL(location).href.replace(/\/$/, '')}/`;
  return location;
}

async function fileValidator(file: string): Promise<string | null> {
  const info = await stat(file).catch(() => null);
  return info === null ? null : `${info.size}:${info.mtimeMs}:${info.ino}`;
}

function now(ctx: OperationContext): Date {
  return ctx.now?.() ?? new Date();
}
