import { checkRepositoryUrl } from '../git/repository-url.js';
import { redactUrl } from '../http/url-policy.js';
import type { EntrySource } from './marketplace-source-schema.js';

/**
 * Where a catalog was read from: `local` for this machine (a directory read in place, a `file:`
 * git repository cloned), `remote` for the network (a marketplace.json over https or loopback
 * http, a git repository cloned over https, loopback http or ssh).
 */
export type CatalogOrigin = 'local' | 'remote';

/** Why an entry's source is refused for where its catalog came from; `at` is below the entry. */
export interface OriginProblem {
  at: string;
  problem: string;
  code: 'E_INSECURE_URL';
  hint: string;
}

const HINT =
  'A marketplace read over the network may name only network sources for its plugins (https, http on a loopback address, ssh). To install a plugin from this machine, add a marketplace on this machine (a directory or a file:// repository) that lists it.';

/**
 * docs/reference/rules/registry.md#j14: a catalog from a `remote` location may not make hookpm read
 * this machine's disk, so an entry naming a local location as its source is refused: an npm
 * `registry` of `file:`, a git `url` of `file:` or an absolute path. Relative (`./`) sources stay
 * inside the catalog's own clone and are not local locations. A `local` catalog may name any.
 * Decided from the catalog's text alone: nothing at the location is read (nor quoted).
 */
export function checkSourceOrigin(
  source: EntrySource,
  origin: CatalogOrigin,
): OriginProblem | null {
  if (origin === 'local') return null;
  if (source.kind === 'npm' && source.registry !== undefined && isFileUrl(source.registry))
    return refused('source.registry', 'the npm registry', source.registry);
  if (source.kind === 'git') {
    const checked = checkRepositoryUrl(source.url);
    if (checked.ok && checked.protocol === 'file')
      return refused('source.url', 'the git repository', source.url);
  }
  return null;
}

function refused(at: string, what: string, location: string): OriginProblem {
  return {
    at,
    problem: `names ${what} ${JSON.stringify(redactUrl(location).slice(0, 200))} on this machine, which a marketplace read from a remote location may not name`,
    code: 'E_INSECURE_URL',
    hint: HINT,
  };
}

function isFileUrl(text: string): boolean {
  try {
    return new URL(text).protocol === 'file:';
  } catch {
    return false;
  }
}
