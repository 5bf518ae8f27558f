import type { Dispatcher } from 'undici';
import { basicAuthOf } from './basic-auth.js';
import { proxyFor, type ProxySettings } from './proxy-policy.js';
import { stripCredentials } from './request-headers.js';
import { shownUrl } from './url-policy.js';

/** How one request goes: its dispatcher, and the proxy it goes through as shown (redacted). */
export interface Route {
  dispatcher: Dispatcher;
  proxy: string | undefined;
}

/** The routes of one fetch, made on first use and destroyed together at its end. */
export interface Routes {
  routeFor(url: URL): Promise<Route>;
  destroy(): Promise<void>;
}

export interface RouteTimeouts {
  connectMs: number;
  /** Also the longest silence between two body chunks. */
  headersMs: number;
}

/**
 * The routes of one fetch under `settings` (registry.md N13): a URL no proxy applies to gets
 * undici's `Agent`; one a proxy applies to gets a `ProxyAgent` for that proxy (a CONNECT tunnel,
 * for `http:` URLs too), with the same timeouts on the connection to the proxy and on the
 * tunnelled one. The proxy's user and password become its Proxy-Authorization (Basic, decoded as
 * N5 decodes a URL's) and are kept out of the URL undici holds, so no error of undici's names
 * them; the request's own headers (Authorization among them) travel inside the tunnel only.
 * ProxyAgent is imported only when a proxy applies.
 */
export function makeRoutes(settings: ProxySettings, timeouts: RouteTimeouts): Routes {
  const made = new Map<string, Promise<Route>>();
  const common = {
    headersTimeout: timeouts.headersMs,
    bodyTimeout: timeouts.headersMs,
  };
  const build = async (proxy: URL | undefined): Promise<Route> => {
    if (proxy === undefined) {
      const { Agent } = await import('./http-client.js');
      return {
        dispatcher: new Agent({ connect: { timeout: timeouts.connectMs }, ...common }),
        proxy: undefined,
      };
    }
    const { newProxyAgent } = await import('./http-proxy-client.js');
    const token = basicAuthOf(proxy);
    const dispatcher = newProxyAgent({
      uri: stripCredentials(proxy).href,
      ...(token === undefined ? {} : { token }),
      proxyTls: { timeout: timeouts.connectMs },
      requestTls: { timeout: timeouts.connectMs },
      ...common,
    });
    return { dispatcher, proxy: shownUrl(proxy.href) };
  };
  return {
    routeFor(url) {
      const proxy = proxyFor(url, settings);
      const key = proxy?.href ?? '';
      let route = made.get(key);
      if (route === undefined) {
        route = build(proxy);
        made.set(key, route);
      }
      return route;
    },
    async destroy() {
      for (const route of made.values()) {
        const { dispatcher } = await route.catch(() => ({ dispatcher: undefined }));
        await dispatcher?.destroy().catch(() => undefined);
      }
    },
  };
}
