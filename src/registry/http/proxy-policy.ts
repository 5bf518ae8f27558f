import { HookpmError } from '../../errors.js';
import { inSubnet } from './ip-subnet.js';
import { redactUserInfo, shownUrl } from './url-policy.js';

/**
 * The HTTP proxies a fetch may go through (docs/reference/rules/registry.md#n13): one for `https:`
 * URLs, one for `http:` URLs, and the hosts that go direct. Values are as configured (a proxy
 * URL may hold a user and password): never printed but through shownUrl.
 */
export interface ProxySettings {
  https?: string;
  http?: string;
  /** NO_PROXY's list: hosts, `.suffix` or `*.suffix` domains, `host:port`, CIDR, or `*` for all. */
  noProxy?: string;
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The proxies the environment names, as curl and undici's EnvHttpProxyAgent read them: the lower
 * case variable wins when set (even empty, which then means none); `https:` URLs fall back to the
 * `http:` proxy when no HTTPS one is named.
 */
export function proxySettingsFromEnv(env: Env): ProxySettings {
  const http = env.http_proxy ?? env.HTTP_PROXY;
  const https = env.https_proxy ?? env.HTTPS_PROXY ?? http;
  const noProxy = env.no_proxy ?? env.NO_PROXY;
  return {
    ...(nonEmpty(https) === undefined ? {} : { https: nonEmpty(https) }),
    ...(nonEmpty(http) === undefined ? {} : { http: nonEmpty(http) }),
    ...(noProxy === undefined ? {} : { noProxy }),
  };
}

/**
 * npm's own settings over the environment's, each for itself (npm's precedence: `.npmrc` and
 * `npm_config_*` before HTTPS_PROXY and the like): `https-proxy`, else `proxy`, for `https:` URLs;
 * `proxy` for `http:` URLs; `noproxy` for NO_PROXY. `get` reads npm's configuration.
 */
export function npmProxySettings(
  get: (key: string) => string | undefined,
  env: Env,
): ProxySettings {
  const fromEnv = proxySettingsFromEnv(env);
  const proxy = configured(get('proxy'));
  const https = configured(get('https-proxy')) ?? proxy ?? fromEnv.https;
  const http = proxy ?? fromEnv.http;
  const noProxy = configured(get('noproxy')) ?? fromEnv.noProxy;
  return {
    ...(https === undefined ? {} : { https }),
    ...(http === undefined ? {} : { http }),
    ...(noProxy === undefined ? {} : { noProxy }),
  };
}

/**
 * The proxy URL a request for `url` goes through, or undefined to go direct: none is configured
 * for its scheme, or NO_PROXY names its host (case-insensitively; `*` names every host; an entry
 * with a port only that port; `10.0.0.0/8` or `fd00::/8` the IP addresses in it, as curl reads
 * it; `corp.example`, `.corp.example` and `*.corp.example` name that host and every host under
 * it; a trailing dot of the host or an entry is ignored, as curl ignores it). A proxy written
 * without a scheme (`proxy:3128`) is taken as `http://`, as curl takes it; its path, query and
 * fragment are ignored, as curl and npm ignore them (the result is the proxy's origin, its user
 * and password kept); one that is not an http(s) URL is `E_REGISTRY_NETWORK` before any request,
 * naming it with everything before its last `@` hidden.
 */
export function proxyFor(url: URL, settings: ProxySettings): URL | undefined {
  const configuredProxy = url.protocol === 'https:' ? settings.https : settings.http;
  if (configuredProxy === undefined || bypassed(url, settings.noProxy ?? '')) return undefined;
  const written = /^[a-z][a-z0-9+.-]*:\/\//i.test(configuredProxy)
    ? configuredProxy
    : `http://${configuredProxy}`;
  // The value is one URL whose password may hold a space (which ends redactUrl's word when it
  // does not parse) or a `/` (which the parser of another scheme reads as its port and path:
  // `socks5://bob:12/pw@p`): all before its last `@` is hidden, whether it parses or not.
  const refuse = (what: string, fix: string): HookpmError => {
    const shown = shownUrl(redactUserInfo(written));
    return new HookpmError('E_REGISTRY_NETWORK', `the proxy ${shown} ${what}`, {
      url: shown,
      hint: `Set HTTPS_PROXY (or .npmrc https-proxy) to an http:// URL: the host and port of the proxy, with user:password@ before the host if it wants credentials${fix}.`,
    });
  };
  let proxy: URL;
  try {
    proxy = new URL(written);
  } catch {
    throw /^https?:/i.test(written)
      ? refuse(
          'is not a valid URL',
          ', percent-encoding a "/", "?", "#" or "@" in them (%2F, %3F, %23, %40)',
        )
      : refuse('is not an http(s) URL', '');
  }
  if (proxy.protocol !== 'http:' && proxy.protocol !== 'https:')
    throw refuse('is not an http(s) URL', '');
  proxy.pathname = '/';
  proxy.search = '';
  proxy.hash = '';
  return proxy;
}

function bypassed(url: URL, noProxy: string): boolean {
  const host = withoutDot(url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase());
  const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
  for (const entry of noProxy.split(/[,\s]+/)) {
    if (entry === '') continue;
    if (entry === '*') return true;
    const cidr = /^\[?([^\]/]+)\]?\/(\d{1,3})$/.exec(entry);
    if (cidr !== null) {
      if (inSubnet(host, cidr[1] as string, Number(cidr[2]))) return true;
      continue;
    }
    // `[::1]:8080`, `[::1]`, `host:8080`, or a bare host (`::1` among them).
    const parts = /^\[([^\]]*)\](?::(\d+))?$/.exec(entry) ?? /^([^:]+):(\d+)$/.exec(entry);
    const portText = parts?.[2];
    if (portText !== undefined && Number(portText) !== port) continue;
    const name = withoutDot((parts?.[1] ?? entry).replace(/^\*?\./, '').toLowerCase());
    if (name === '') continue;
    if (host === name || host.endsWith(`.${name}`)) return true;
  }
  return false;
}

/** A fully qualified name's trailing dot dropped (`corp.example.` is `corp.example`). */
function withoutDot(name: string): string {
  return name.endsWith('.') ? name.slice(0, -1) : name;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

/** npm's `proxy=false` (or null, or empty) sets none, and the environment's applies. */
function configured(value: string | undefined): string | undefined {
  const set = nonEmpty(value);
  return set === undefined || set === 'false' || set === 'null' ? undefined : set;
}
