/**
 * One loader per registry kind (docs/reference/rules/registry.md#registry-kinds), each giving the
 * registry's plugins in the index format, and its search projection, so search, info and install
 * read every kind alike.
 *
 * The `marketplace` kind turns a Claude-style marketplace into a RegistryIndex cached under
 * `<cache>/indexes/<registry>.json` (marketplace-catalog.ts); the `npm` kind has an empty catalog
 * (npm-catalog.ts): its plugins are found by package name (install, info), never listed.
 */
import { fileURLToPath } from 'node:url';
import { HookpmError, isHookpmError } from '../../../errors.js';
import { loadIndex, loadIndexSummary } from '../../../registry/indexes/load-index.js';
import type { LoadIndexOptions } from '../../../registry/indexes/load-index.js';
import { indexUrlOf, showLocation } from '../../../registry/registry-location.js';
import { indexCacheDir } from '../../../store/paths.js';
import type { RegistryKind } from '../../../store/state/state-schema.js';
import { isBuiltinName, type RegistryEntry } from './defaults.js';
import type { OperationContext } from '../context/operation-context.js';
import { networkAllowed } from '../context/network.js';
import type { Catalog, CatalogOptions, CatalogSummary } from './catalog-types.js';

export interface KindLoader {
  full(entry: RegistryEntry, ctx: OperationContext, opts: CatalogOptions): Promise<Catalog>;
  summary(
    entry: RegistryEntry,
    ctx: OperationContext,
    opts: CatalogOptions,
  ): Promise<CatalogSummary>;
}

const LOADERS: Readonly<Record<RegistryKind, KindLoader>> = {
  index: {
    full: (entry, ctx, opts) =>
      withBuiltinHint(entry, async () => {
        const load = indexOptions(entry, ctx, opts);
        const { loadSparseRoot } = await import('../../../registry/sparse/load-sparse.js');
        const sparse = await loadSparseRoot(source(entry), load);
        if (sparse !== null) {
          const { sparseCatalog } = await import('./sparse-catalog.js');
          const loaded = await sparseCatalog(entry, sparse, load, opts);
          return { ...loaded, ...cachedBy(ctx, loaded) };
        }
        const loaded = await loadIndex(source(entry), load).catch(outgrown(entry));
        return { registry: entry.name, kind: 'index', ...loaded, ...cachedBy(ctx, loaded) };
      }),
    summary: (entry, ctx, opts) =>
      withBuiltinHint(entry, async () => {
        const load = indexOptions(entry, ctx, opts);
        const { loadSparseRoot } = await import('../../../registry/sparse/load-sparse.js');
        const sparse = await loadSparseRoot(source(entry), load);
        if (sparse !== null) {
          const { sparseSummary } = await import('./sparse-catalog.js');
          const loaded = await sparseSummary(entry, sparse, load, opts);
          return { ...loaded, ...cachedBy(ctx, loaded) };
        }
        const loaded = await loadIndexSummary(source(entry), load).catch(outgrown(entry));
        return { registry: entry.name, kind: 'index', ...loaded, ...cachedBy(ctx, loaded) };
      }),
  },
  // Loaded only when used: search must not pay for git, tar or the marketplace schema.
  marketplace: {
    full: async (entry, ctx, opts) =>
      (await import('./marketplace-catalog.js')).loadMarketplaceCatalog(entry, ctx, opts),
    summary: async (entry, ctx, opts) =>
      (await import('./marketplace-catalog.js')).loadMarketplaceCatalog(entry, ctx, opts),
  },
  npm: {
    full: async (entry, ctx) =>
      (await import('./npm-catalog.js')).createNpmCatalog(entry, nowOf(ctx)),
    summary: async (entry, ctx) =>
      (await import('./npm-catalog.js')).createNpmCatalog(entry, nowOf(ctx)),
  },
};

/**
 * The index URL, and whether the index came from the cache only because the network is off (a
 * network index: load-index reads a `file:` one as usual).
 */
function cachedBy(
  ctx: OperationContext,
  loaded: { url: string; origin: string },
): Pick<CatalogSummary, 'indexUrl' | 'cacheOnly'> {
  // A sparse registry's `url` is its root document: tarball locations resolve against it too.
  const network = !loaded.url.startsWith('file:');
  const cacheOnly = !networkAllowed(ctx) && network && loaded.origin === 'cache';
  return { indexUrl: loaded.url, cacheOnly };
}

function nowOf(ctx: OperationContext): Date {
  return ctx.now?.() ?? new Date();
}

/**
 * N1, N6: an `index.json` over the cap of a network registry stored by its base URL (added before
 * it had the sparse layout, which `registry add` now asks for first). Its builder, if hookpm, has
 * written `registry.json` beside it, which has no cap on the registry as a whole: the hint says
 * how to read that instead. Any other error passes as it is.
 */
function outgrown(entry: RegistryEntry): (error: unknown) => never {
  return (error) => {
    const url = indexUrlOf(entry.record.location);
    if (!isHookpmError(error, 'E_REGISTRY_TOO_LARGE') || url.startsWith('file:')) throw error;
    const root = showLocation(new URL('registry.json', url).href);
    throw new HookpmError(error.code, error.message, {
      ...error.details,
      registry: entry.name,
      hint: `The registry's index.json is larger than hookpm reads; a large registry serves the sparse layout instead. If it has one, read it: \`hookpm registry remove ${entry.name}\`, then \`hookpm registry add ${entry.name} ${root}\`.`,
    });
  };
}

/** The registry's whole index (for info and install). */
export function loadCatalog(
  entry: RegistryEntry,
  ctx: OperationContext,
  opts: CatalogOptions,
): Promise<Catalog> {
  return LOADERS[entry.record.kind].full(entry, ctx, opts);
}

/** The registry's search projection (for search and registry list/update). */
export function loadCatalogSummary(
  entry: RegistryEntry,
  ctx: OperationContext,
  opts: CatalogOptions,
): Promise<CatalogSummary> {
  return LOADERS[entry.record.kind].summary(entry, ctx, opts);
}

function source(entry: RegistryEntry): { name: string; location: string } {
  return { name: entry.name, location: entry.record.location };
}

function indexOptions(
  entry: RegistryEntry,
  ctx: OperationContext,
  opts: CatalogOptions,
): LoadIndexOptions {
  const onProgress = ctx.onProgress;
  return {
    cacheDir: indexCacheDir(ctx.paths),
    cacheOnly: !networkAllowed(ctx),
    refresh: opts.refresh,
    ...(ctx.now ? { now: ctx.now } : {}),
    ...(ctx.indexMaxAgeMs === undefined ? {} : { maxAgeMs: ctx.indexMaxAgeMs }),
    ...(ctx.fetch ? { fetch: ctx.fetch } : {}),
    ...(onProgress
      ? {
          onProgress: (received: number, total: number | null) =>
            onProgress({ kind: 'index', registry: entry.name, received, total }),
        }
      : {}),
  };
}

/**
 * A built-in registry whose index is missing gets an error that says what to do; a project's
 * registry (a default for this command only) keeps its own error, naming the file.
 */
async function withBuiltinHint<T>(entry: RegistryEntry, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (!entry.builtin || !isHookpmError(error, 'E_NOT_FOUND')) throw error;
    if (!isBuiltinName(entry.name)) throw error;
    const url = indexUrlOf(entry.record.location);
    const file = url.startsWith('file:') ? fileURLToPath(url) : showLocation(url);
    throw new HookpmError(
      'E_NOT_FOUND',
      `the built-in registry ${entry.name} has no index: there is no ${file}`,
      {
        registry: entry.name,
        url: showLocation(url),
        cause: error.message,
        hint: `The package's registry-fixtures/ has not been built (\`hookpm registry build registry-fixtures/plugins --out registry-fixtures\`); or remove it: \`hookpm registry remove ${entry.name}\`.`,
      },
    );
  }
}
