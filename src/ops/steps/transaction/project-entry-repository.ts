import { isLockedLocation } from '../../../project/lockfile.js';
import type { EntrySource } from '../../../registry/marketplace/marketplace-schema.js';
import { redactUrl } from '../../../registry/http/url-policy.js';
import { cannotHold } from './cannot-hold.js';

/** What a project can hold, for the refusals below. */
const HOLDS =
  'A project holds a marketplace entry whose source is a git repository reached by an https:, http: (loopback) or file: URL without credentials; hookpm.lock pins its commit and tokens for a private host come from the environment (K6).';

type GitEntrySource = Extract<EntrySource, { kind: 'git' }>;

/**
 * docs/reference/rules/registry.md#j13: what hookpm.lock's `resolved` records for a marketplace
 * entry whose own source is a git repository (`github`, `url`, `git-subdir`): the repository's URL
 * (`https:`, `http:` or `file:`), followed by `#<subdirectory>` when the plugin is a subdirectory
 * of it. A URL holding credentials, a query or a fragment, or of another scheme (scp-like, `ssh:`),
 * is E_USAGE: hookpm.json and hookpm.lock are committed, and the lock must name the repository
 * as every teammate's hookpm reaches it.
 */
export function entryRepositoryResolved(id: string, source: GitEntrySource): string {
  const shown = redactUrl(source.url);
  let url: URL | null = null;
  try {
    url = new URL(source.url);
  } catch {
    url = null;
  }
  if (url === null || !['https:', 'http:', 'file:'].includes(url.protocol))
    throw cannotHold(id, `its repository ${shown} is not an https:, http: or file: URL`, HOLDS);
  if (url.username !== '' || url.password !== '')
    throw cannotHold(
      id,
      `its repository URL ${shown} holds credentials, which hookpm.lock would publish`,
      HOLDS,
    );
  if (url.search !== '' || url.hash !== '' || /[\s#?]/.test(source.url))
    throw cannotHold(id, `its repository URL ${shown} holds a query or a fragment`, HOLDS);
  if (source.path === undefined || source.path === '' || source.path === '.') return source.url;
  if (!isLockedLocation(source.path))
    throw cannotHold(
      id,
      `its subdirectory ${source.path} is not a plain path inside the repository`,
      HOLDS,
    );
  return `${source.url}#${source.path}`;
}

/** Whether a lock's `resolved` names an entry's repository (J13) rather than a directory (J10). */
export function isEntryRepositoryResolved(resolved: string): boolean {
  return /^(https?|file):\/\//i.test(resolved);
}

/** The repository URL and subdirectory of a J13 `resolved`, credentials redacted, for messages. */
export function shownEntryRepository(resolved: string): string {
  const at = resolved.indexOf('#');
  if (at < 0) return redactUrl(resolved);
  return `${redactUrl(resolved.slice(0, at))} (directory ${resolved.slice(at + 1)})`;
}
