import { HookpmError } from '../../../errors.js';
import { ambiguousName } from '../../../registry/versions/resolve-version.js';
import type { RegistryEntry } from '../catalogs/defaults.js';
import { npmSource } from './source.js';
import type { InstallSource, MarketplaceSource, NpmSource } from './types.js';
import type { LoadedCatalogs } from '../catalogs/load-catalogs.js';
import type { Catalog } from '../catalogs/catalog-types.js';
import { errorOf, type RegistrySpec } from './pick.js';
import { excludedEntryError } from '../catalogs/excluded-entry.js';
import { ownValue } from '../../../json/own-value.js';
import { suggestIn } from '../../../text/did-you-mean.js';

/**
 * V1 for the registry kinds that are not indexes, before index resolution (pick.ts):
 * - `<name>@<registry>` naming a `marketplace` registry: a MarketplaceSource (E_NOT_FOUND when the
 *   catalog has no such plugin; the registry's own error when it could not be read);
 * - `<pkg>@<registry>` naming an `npm` registry, or `<pkg>@npm` when no registry is named `npm`:
 *   an NpmSource for the package at that registry's URL (the default npm registry otherwise); the
 *   id is `<manifest name>@npm`;
 * - a bare name found in more than one registry of any kind: E_AMBIGUOUS listing the ids; found
 *   only in a marketplace: a MarketplaceSource; found nowhere but in an entry a marketplace left
 *   out (invalid): E_REGISTRY_SCHEMA naming the entry and why (excluded-entry.ts).
 * Returns null when the spec is for an index registry (or nowhere): pick.ts decides.
 */
export function resolveCatalogSource(
  spec: RegistrySpec,
  loaded: LoadedCatalogs<Catalog>,
  includePrerelease: boolean,
): InstallSource | null {
  if (spec.registry !== undefined) {
    const entry = loaded.entries.find((e) => e.name === spec.registry);
    if (entry === undefined)
      return spec.registry === 'npm' ? npmOf(spec, undefined, includePrerelease) : null;
    if (entry.record.kind === 'npm') return npmOf(spec, entry, includePrerelease);
    if (entry.record.kind !== 'marketplace') return null;
    const failed = loaded.warnings.find((w) => w.registry === entry.name);
    if (failed !== undefined) throw errorOf(failed);
    const catalog = loaded.catalogs.find((c) => c.registry === entry.name);
    if (catalog === undefined || ownValue(catalog.index.plugins, spec.name) === undefined) {
      const excluded = catalog === undefined ? null : excludedEntryError([catalog], spec.name);
      if (excluded !== null) throw excluded;
      throw suggestIn(
        new HookpmError('E_NOT_FOUND', `no plugin ${spec.name} in registry ${entry.name}`, {
          plugin: `${spec.name}@${entry.name}`,
          hint: `Run \`hookpm search\` to see what the registries offer, or \`hookpm registry update ${entry.name}\`.`,
        }),
        spec.name,
        catalog === undefined ? [] : Object.keys(catalog.index.plugins),
      );
    }
    return marketplaceSource(spec, entry);
  }
  const holders = loaded.catalogs.filter((c) => ownValue(c.index.plugins, spec.name) !== undefined);
  if (holders.length > 1) {
    throw ambiguousName(
      spec.name,
      holders.map((c) => `${spec.name}@${c.registry}`),
    );
  }
  const only = holders[0];
  if (only === undefined) {
    const excluded = excludedEntryError(loaded.catalogs, spec.name);
    if (excluded !== null) throw excluded;
  }
  if (only === undefined || only.kind !== 'marketplace') return null;
  const entry = loaded.entries.find((e) => e.name === only.registry);
  if (entry === undefined) throw new Error('Assertion failed: a catalog without its registry');
  return marketplaceSource(spec, entry);
}

function npmOf(
  spec: RegistrySpec,
  registry: RegistryEntry | undefined,
  includePrerelease: boolean,
): NpmSource {
  const source = npmSource(
    {
      kind: 'npm',
      raw: spec.raw,
      package: spec.name,
      ...(spec.range === undefined ? {} : { range: spec.range }),
      ...(spec.tag === undefined ? {} : { tag: spec.tag }),
    },
    includePrerelease,
  );
  if (registry === undefined) return source;
  source.request.registry = registry.record.location;
  source.via = registry.name;
  return source;
}

function marketplaceSource(spec: RegistrySpec, entry: RegistryEntry): MarketplaceSource {
  const source: MarketplaceSource = {
    kind: 'marketplace',
    spec: spec.raw,
    path: `${spec.name}@${entry.name}`,
    fallbackName: spec.name,
    registry: entry.name,
    range: spec.range ?? spec.tag ?? '',
    name: spec.name,
    location: entry.record.location,
  };
  if (spec.range !== undefined) source.wantRange = spec.range;
  if (spec.tag !== undefined) source.wantTag = spec.tag;
  return source;
}
