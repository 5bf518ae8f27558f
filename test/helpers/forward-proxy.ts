/**
 * A forward proxy on 127.0.0.1 for proxy tests: plain http requests in absolute form are passed
 * on with node:http, CONNECT is tunnelled with node:net. It records what it saw (the request line
 * and headers of each request or CONNECT, never the tunnelled bytes), and with `auth` answers 407
 * to any request without that exact `Proxy-Authorization`.
 */
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';

export interface SeenRequest {
  method: string;
  /** The request target: `host:port` for CONNECT, an absolute URL otherwise. */
  target: string;
  headers: IncomingHttpHeaders;
}

export interface ForwardProxy {
  /** `http://127.0.0.1:<port>/` */
  url: string;
  port: number;
  seen: SeenRequest[];
  close: () => Promise<void>;
}

/** Starts the proxy; `auth` is the Proxy-Authorization value it requires (e.g. `Basic ...`). */
export async function startForwardProxy(opts: { auth?: string } = {}): Promise<ForwardProxy> {
  const seen: SeenRequest[] = [];
  const sockets = new Set<Socket>();
  const allowed = (headers: IncomingHttpHeaders): boolean =>
    opts.auth === undefined || headers['proxy-authorization'] === opts.auth;
  const server: Server = createServer((req, res) => {
    seen.push({ method: req.method ?? '', target: req.url ?? '', headers: req.headers });
    if (!allowed(req.headers)) {
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="test"' });
      return res.end();
    }
    const { 'proxy-authorization': _auth, 'proxy-connection': _conn, ...headers } = req.headers;
    const upstream = request(req.url ?? '', { method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  server.on('connect', (req, client: Socket, head: Buffer) => {
    seen.push({ method: 'CONNECT', target: req.url ?? '', headers: req.headers });
    sockets.add(client);
    client.on('error', () => undefined);
    if (!allowed(req.headers)) {
      client.end(
        'HTTP/1.1 407 Proxy Authentication Required\r\n' +
          'Proxy-Authenticate: Basic realm="test"\r\nContent-Length: 0\r\n\r\n',
      );
      return;
    }
    const [host, port] = (req.url ?? '').split(/:(?=\d+$)/);
    const upstream = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    url: `http://127.0.0.1:${address.port}/`,
    port: address.port,
    seen,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
