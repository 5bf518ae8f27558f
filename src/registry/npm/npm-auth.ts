import type { NpmConfig } from './npm-config.js';

/** The npm registry to ask for one package, and the credentials npm would send with each request. */
export interface NpmRegistryAccess {
  /** The registry's base URL, ending in `/`. */
  registry: string;
  /**
   * The Authorization header npm would send to `url`, or undefined (docs/reference/rules/registry.md#k5):
   * asked again for every request and every redirect hop, so a credential only ever goes to the
   * host and path it is configured for.
   */
  authorization(url: URL): string | undefined;
}

/**
 * npm's "nerf dart" of a URL: `//host[:port]/path/`, without scheme, credentials, query or the last
 * path segment. Credentials in an `.npmrc` are keyed by it (`//npm.acme.test/:_authToken=...`).
 */
export function nerfDart(url: string): string {
  const parsed = new URL(url);
  const path = parsed.pathname.replace(/[^/]*$/, '');
  return `//${parsed.host}${path}`;
}

/**
 * The Authorization header for `url` from `config`, found as npm-registry-fetch finds it: the
 * longest `//host/path` prefix of the URL (walking up one segment or slash at a time, never past
 * the host) that has `:_authToken` (Bearer), `:_auth` (Basic, already base64) or `:username` with
 * `:_password` (Basic; the password is stored base64-encoded, as npm stores it). Top-level
 * `_authToken`/`_auth`/`username`+`_password` count as keyed by `defaultRegistry` (what
 * `npm config fix` makes of them). Only http(s) URLs ever get credentials.
 */
export function authorizationFor(
  config: NpmConfig,
  url: URL,
  defaultRegistry: string,
): string | undefined {
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  const defaultDart = nerfDart(defaultRegistry);
  const lookup = (key: string): string | undefined => {
    const scoped = config.get(key);
    if (scoped !== undefined && scoped !== '') return scoped;
    const colon = key.lastIndexOf(':');
    if (
      key.slice(0, colon) !== defaultDart.replace(/\/$/, '') &&
      key.slice(0, colon) !== defaultDart
    )
      return undefined;
    const bare = config.get(key.slice(colon + 1));
    return bare === '' ? undefined : bare;
  };
  let key = `//${url.host}${url.pathname}`;
  while (key.length > 2 && key.startsWith(`//${url.host}`)) {
    const found = credentialsAt(key, lookup);
    if (found !== undefined) return found;
    key = key.replace(/([^/]+|\/)$/, '');
  }
  return undefined;
}

function credentialsAt(
  key: string,
  lookup: (key: string) => string | undefined,
): string | undefined {
  const token = lookup(`${key}:_authToken`);
  if (token !== undefined) return `Bearer ${token}`;
  const auth = lookup(`${key}:_auth`);
  if (auth !== undefined) return `Basic ${auth}`;
  const username = lookup(`${key}:username`);
  const password = lookup(`${key}:_password`);
  if (username !== undefined && password !== undefined) {
    const clear = Buffer.from(password, 'base64').toString('utf8');
    return `Basic ${Buffer.from(`${username}:${clear}`).toString('base64')}`;
  }
  return undefined;
}
