import type { RegistryEntry } from './defaults.js';
import type { Catalog } from './catalog-types.js';

/**
 * The catalog of an `npm` registry (docs/reference/rules/registry.md#registry-kinds): empty. The
 * npm registry offers no listing of hook plugins (its search API is not a catalog, and a package is
 * a plugin only when its tarball holds a manifest), so `search` skips npm registries with a note,
 * `info <pkg>@<registry>` reads the package document (npm-info.ts), and `install <pkg>@<registry>`
 * resolves against the package document when it stages (fetch-npm.ts). Nothing is fetched or cached
 * here, so it works without network.
 */
export function createNpmCatalog(entry: RegistryEntry, now: Date): Catalog {
  return {
    registry: entry.name,
    kind: 'npm',
    index: { formatVersion: 1, plugins: {} },
    summary: [],
    indexUrl: entry.record.location,
    origin: 'cache',
    fetchedAt: now.toISOString(),
    cacheOnly: false,
    stale: null,
  };
}
