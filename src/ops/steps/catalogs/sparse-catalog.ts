/**
 * An index registry with the sparse layout (registry.md N6-N11) as a catalog: the root document,
 * then only what the caller needs. `plugins` names the plugins install, info, update and outdated
 * look up (only their documents are fetched: the catalog's index holds those the registry lists);
 * a summary reads the search shards unless only the count is needed (`registry add`, `list`).
 */
import type { LoadIndexOptions } from '../../../registry/indexes/load-index.js';
import {
  loadSparsePlugins,
  loadSparseSummary,
  type SparseLoad,
} from '../../../registry/sparse/load-sparse.js';
import type { RegistryEntry } from './defaults.js';
import type { Catalog, CatalogOptions, CatalogSummary } from './catalog-types.js';

export async function sparseCatalog(
  entry: RegistryEntry,
  sparse: SparseLoad,
  load: LoadIndexOptions,
  opts: CatalogOptions,
): Promise<Omit<Catalog, 'indexUrl' | 'cacheOnly'> & { url: string }> {
  const { index, origin } = await loadSparsePlugins(sparse, opts.plugins ?? [], load);
  return { ...common(entry, sparse), origin, index, summary: [] };
}

export async function sparseSummary(
  entry: RegistryEntry,
  sparse: SparseLoad,
  load: LoadIndexOptions,
  opts: CatalogOptions,
): Promise<Omit<CatalogSummary, 'indexUrl' | 'cacheOnly'> & { url: string }> {
  if (opts.countOnly === true) return { ...common(entry, sparse), summary: [] };
  const { summary, origin, partial } = await loadSparseSummary(sparse, load);
  // D5: pages left out offline are said as a stale copy is (load-catalogs.ts warns of it).
  const stale = partial ?? sparse.stale;
  return { ...common(entry, sparse), origin, summary, stale };
}

function common(entry: RegistryEntry, sparse: SparseLoad) {
  return {
    registry: entry.name,
    kind: 'index' as const,
    url: sparse.url,
    origin: sparse.origin,
    fetchedAt: sparse.fetchedAt,
    stale: sparse.stale,
    pluginCount: sparse.root.pluginCount,
  };
}
