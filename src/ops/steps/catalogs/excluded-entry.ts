import { HookpmError, type ErrorCode } from '../../../errors.js';
import type { Catalog } from './catalog-types.js';

/**
 * The error for `name` when no catalog holds it but a marketplace lists it in an entry it left out
 * (invalid, or its plugin could not be staged; marketplace-index.ts): E_REGISTRY_SCHEMA naming the
 * entry and why, instead of a bare E_NOT_FOUND. Null when no marketplace lists the name so. An
 * entry left out for a size limit keeps its code, E_ARCHIVE_TOO_LARGE, and its hint, so install
 * says what `registry add` and `validate` said (docs/design/decisions.md#plugins-and-marketplaces);
 * one a remote marketplace may not list (a source on this machine, registry.md J14) keeps
 * E_INSECURE_URL and its hint.
 * `details.excludedEntry` lets a caller revalidate a cached catalog before giving up.
 */
const KEPT_CODES: readonly ErrorCode[] = ['E_ARCHIVE_TOO_LARGE', 'E_INSECURE_URL'];

export function excludedEntryError(
  catalogs: ReadonlyArray<Pick<Catalog, 'registry' | 'excluded'>>,
  name: string,
): HookpmError | null {
  for (const catalog of catalogs) {
    const found = catalog.excluded?.find((entry) => entry.name === name);
    if (found === undefined) continue;
    const id = `${name}@${catalog.registry}`;
    const code: ErrorCode = KEPT_CODES.find((kept) => kept === found.code) ?? 'E_REGISTRY_SCHEMA';
    const fix = `Fix the entry (\`hookpm validate\` on the marketplace shows every problem), then run \`hookpm registry update ${catalog.registry}\`.`;
    return new HookpmError(
      code,
      `${id}: the marketplace ${catalog.registry} lists ${name}, but its entry cannot be used: ${found.message}`,
      {
        plugin: id,
        registry: catalog.registry,
        excludedEntry: true,
        hint: found.hint === undefined ? fix : `${found.hint} ${fix}`,
      },
    );
  }
  return null;
}
