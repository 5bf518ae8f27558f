import { HookpmError } from '../../errors.js';
import type { ProxySettings } from '../http/proxy-policy.js';
import type { NpmConfig, NpmrcLayer } from './npm-config.js';

/** The npm registry to ask for one package, and the credentials npm would send with each request. */
export interface NpmRegistryAccess {
  /** The registry's base URL, ending in `/`. */
  registry: string;
  /**
   * The Authorization header npm would send to `url`, or undefined (docs/reference/rules/registry.md#k5):
   * asked again for every request and every redirect hop, so a credential only ever goes to the
   * host and path it is configured for, or to another path of the registry's own host when that
   * path has none (registryAuthorization).
   */
  authorization(url: URL): string | undefined;
  /** The proxies npm would go through: `.npmrc` over the environment (registry.md#n13). */
  proxy: ProxySettings;
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
 * `_authToken`/`_auth`/`username`+`_password` count as keyed by the default registry (what
 * `npm config fix` makes of them): for the project `.npmrc`'s own, `registry` as the first layer
 * sets it; for any other layer's, `registry` as the first layer other than the project file sets
 * it (a cloned project's `.npmrc` naming another `registry` never sends the user's top-level token
 * there); `fallbackRegistry` where none does. A default registry that is not a URL (npm ignores
 * such a value) has none. Only http(s) URLs ever get credentials. A credential that no HTTP
 * header can carry (a control character, a character past U+00FF) is `E_REGISTRY_NETWORK` before
 * any request, naming its key, never its value (K5).
 */
export function authorizationFor(
  config: NpmConfig,
  url: URL,
  fallbackRegistry: string,
): string | undefined {
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  const darts = topLevelDarts(config, fallbackRegistry);
  const lookup = (key: string): string | undefined => {
    const scoped = config.get(key);
    if (scoped !== undefined && scoped !== '') return scoped;
    const colon = key.lastIndexOf(':');
    const prefix = key.slice(0, colon);
    for (const [layer, dart] of darts) {
      const bare = layer.values[key.slice(colon + 1)];
      if (bare === undefined || bare === '' || dart === null) continue;
      if (prefix === dart || prefix === dart.replace(/\/$/, '')) return bare;
    }
    return undefined;
  };
  const target = `//${url.host}${url.pathname}`;
  const defaults = [...darts.values()].filter((dart) => dart !== null);
  for (const key of configuredPrefixes(config, defaults, target, `//${url.host}`.length)) {
    const found = credentialsAt(key, lookup);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * What npm sends with each request for a package asked for at `registry` (npm-registry-fetch):
 * authorizationFor the request URL; a URL that has none of its own but is on the registry's host
 * (host and port, as `URL.host` tells them) gets the registry's own, as GitLab's instance-level
 * endpoint serves tarballs from each project's path. Any other host gets nothing more.
 */
export function registryAuthorization(
  config: NpmConfig,
  registry: string,
  fallbackRegistry: string,
): (url: URL) => string | undefined {
  const base = new URL(registry);
  return (url) => {
    const own = authorizationFor(config, url, fallbackRegistry);
    if (own !== undefined || url.host !== base.host || url.href === base.href) return own;
    return authorizationFor(config, base, fallbackRegistry);
  };
}

const CREDENTIAL_FIELDS = new Set(['_authToken', '_auth', 'username', '_password']);

/**
 * The `//host/path` keys of `config` that hold a credential and that npm's walk up `target` would
 * reach (the whole of it, or a prefix ending in `/` or followed by one, never shorter than
 * `//host`), longest first. Taken from the configuration rather than from the URL, so that a URL
 * of megabytes (a package document names any tarball URL) costs one pass over it, not one per
 * segment.
 */
function configuredPrefixes(
  config: NpmConfig,
  defaultDarts: readonly string[],
  target: string,
  hostLength: number,
): string[] {
  const keys = new Set<string>();
  for (const dart of defaultDarts) keys.add(dart).add(dart.replace(/\/$/, ''));
  for (const layer of config.layers) {
    for (const name of Object.keys(layer.values)) {
      const colon = name.lastIndexOf(':');
      if (name.startsWith('//') && CREDENTIAL_FIELDS.has(name.slice(colon + 1)))
        keys.add(name.slice(0, colon));
    }
  }
  const reached = [...keys].filter(
    (key) =>
      key.length >= hostLength &&
      target.startsWith(key) &&
      (key.length === target.length || key.endsWith('/') || target[key.length] === '/'),
  );
  return reached.sort((a, b) => b.length - a.length);
}

/**
 * The nerf dart each layer's top-level credentials are keyed by (null: none), in the layers'
 * order: the project file's, that of `registry` from the first layer setting it; any other's, that
 * of `registry` from the first layer other than the project file setting it; `fallbackRegistry`'s
 * where none does.
 */
function topLevelDarts(
  config: NpmConfig,
  fallbackRegistry: string,
): Map<NpmrcLayer, string | null> {
  const registryOf = (layers: readonly NpmrcLayer[]): string =>
    layers
      .map((layer) => layer.values.registry?.trim())
      .find((value) => value !== undefined && value !== '') ?? fallbackRegistry;
  const all = nerfDartOrNull(registryOf(config.layers));
  const trusted = nerfDartOrNull(registryOf(config.layers.filter((l) => l.source !== 'project')));
  return new Map(config.layers.map((layer) => [layer, layer.source === 'project' ? all : trusted]));
}

function nerfDartOrNull(url: string): string | null {
  try {
    return nerfDart(url);
  } catch {
    return null;
  }
}

function credentialsAt(
  key: string,
  lookup: (key: string) => string | undefined,
): string | undefined {
  const token = lookup(`${key}:_authToken`);
  if (token !== undefined) return `Bearer ${headerSafe(token, `${key}:_authToken`)}`;
  const auth = lookup(`${key}:_auth`);
  if (auth !== undefined) return `Basic ${headerSafe(auth, `${key}:_auth`)}`;
  const username = lookup(`${key}:username`);
  const password = lookup(`${key}:_password`);
  if (username !== undefined && password !== undefined) {
    const clear = Buffer.from(password, 'base64').toString('utf8');
    return `Basic ${Buffer.from(`${username}:${clear}`).toString('base64')}`;
  }
  return undefined;
}

/** Characters an HTTP header value cannot hold (undici refuses them, RFC 9110 field-value). */
const NOT_IN_HEADER = /[^\t\x20-\x7e\x80-\xff]/;

/** `value` when a header can carry it; otherwise E_REGISTRY_NETWORK naming `key` only (N5). */
function headerSafe(value: string, key: string): string {
  if (!NOT_IN_HEADER.test(value)) return value;
  throw new HookpmError(
    'E_REGISTRY_NETWORK',
    `the npm credential ${key} holds a character an HTTP header cannot carry (a line break or another control character); nothing was sent`,
    {
      key,
      hint: 'Fix that line of your .npmrc (the project, user or global file, or an npm_config_ variable): a token is one line of printable characters.',
    },
  );
}
