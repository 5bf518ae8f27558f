import type { IndexOrigin } from '../../../registry/indexes/load-index.js';
import type { RegistryIndex } from '../../../registry/indexes/index-schema.js';
import type { IndexSummary } from '../../../registry/indexes/index-summary.js';
import type { RegistryKind } from '../../../store/state/state-schema.js';
import type { ExcludedEntry } from '../../../registry/marketplace/marketplace-schema.js';

/** What every registry kind's loader gives for search and registry list/update (catalog.ts). */
export interface CatalogSummary {
  registry: string;
  kind: RegistryKind;
  summary: IndexSummary;
  /** Tarball locations in the index resolve against this URL. */
  indexUrl: string;
  origin: IndexOrigin;
  fetchedAt: string;
  /** True when it came from the cache only, because the network is off (D5). */
  cacheOnly: boolean;
  /**
   * Set when the registry could not be reached and a stale cached copy was used (load-index.ts),
   * or when a search without the network left out pages of a sparse registry (load-sparse.ts), with
   * the fix when it is not `registry update`.
   */
  stale: { code: string; message: string; hint?: string } | null;
  /** A marketplace's entries left out of its catalog, each naming the entry and why. */
  excluded?: ExcludedEntry[];
  /** How many plugins the registry lists, when `summary` does not hold them all (a sparse registry). */
  pluginCount?: number;
}

/** A registry's plugins in the index format, whatever its kind (for info and install). */
export interface Catalog extends CatalogSummary {
  index: RegistryIndex;
}

export interface CatalogOptions {
  /** Re-read or revalidate now whatever the cached copy (registry add, registry update). */
  refresh: boolean;
  /** The plugins looked up: a sparse registry fetches only their documents (registry.md N11). */
  plugins?: readonly string[];
  /** Only the number of plugins is needed: a sparse registry reads its root document only. */
  countOnly?: boolean;
}
