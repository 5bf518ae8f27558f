/**
 * undici's `ProxyAgent`, from its own file (as http-client.ts takes `Agent`), in a module of its
 * own: only a fetch that goes through a proxy imports it, so a command without one loads nothing
 * more of undici (docs/design/benchmarks.md).
 */
import { isIP } from 'node:net';
import type { buildConnector, Dispatcher, ProxyAgent as ProxyAgentType } from 'undici';
import ProxyAgent from 'undici/lib/dispatcher/proxy-agent.js';
import Pool from 'undici/lib/dispatcher/pool.js';
import connectOn from 'undici/lib/api/api-connect.js';

/**
 * A ProxyAgent for `opts`. Its connection to the proxy asks for tunnels with `connect`, a method
 * undici's index adds to every dispatcher (hookpm does not load the index): the pool made here
 * has it as its own. The proxy's answer to a CONNECT is waited for at most `headersTimeout`, as
 * a registry's answer is (undici's default is 300 s). An `https:` proxy named by an IP address
 * is reached without a TLS server name (SNI takes names only, RFC 6066): undici would send the
 * address, and Node print a deprecation warning on every command; its certificate is still
 * checked against that address.
 */
export function newProxyAgent(
  opts: ProxyAgentType.Options & { headersTimeout: number },
): Dispatcher {
  return new ProxyAgent({
    ...opts,
    clientFactory: (origin: URL, options: { connect?: buildConnector.connector }): Dispatcher => {
      const connect = options.connect;
      const named: buildConnector.connector | undefined =
        connect === undefined
          ? undefined
          : (target, callback) =>
              connect(
                isIP(target.servername ?? '') === 0 ? target : { ...target, servername: undefined },
                callback,
              );
      return Object.assign(
        new Pool(origin, {
          ...options,
          ...(named === undefined ? {} : { connect: named }),
          headersTimeout: opts.headersTimeout,
        }),
        { connect: connectOn },
      );
    },
  });
}
