import type { State } from '../../../store/state/state-schema.js';
import type { Catalog } from './catalog-types.js';

/**
 * The plugin names a "did you mean" may suggest
 * (docs/design/decisions.md#where-the-rules-are-silent): those the loaded catalogs list (only
 * `registry`'s when one is named), then those installed (of that registry).
 */
export function knownPluginNames(
  catalogs: readonly Catalog[],
  state: State,
  registry?: string,
): string[] {
  const names: string[] = [];
  for (const catalog of catalogs)
    if (registry === undefined || catalog.registry === registry)
      names.push(...Object.keys(catalog.index.plugins));
  for (const record of Object.values(state.plugins))
    if (registry === undefined || record.registry === registry) names.push(record.name);
  return names;
}
