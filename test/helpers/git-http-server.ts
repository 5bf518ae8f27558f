/**
 * A git smart-HTTP server on 127.0.0.1 for tests: a node http server running the system's
 * `git http-backend` as a CGI program over the bare repositories under `root`. Every request is
 * recorded with its headers; a request that `allow` refuses gets 401 with a Basic challenge and
 * never reaches git (as a private GitHub or GitLab repository answers a client without its token).
 */
import { spawn } from 'node:child_process';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface GitHttpServer {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  origin: string;
  /** `127.0.0.1:<port>`. */
  host: string;
  requests: { path: string; headers: IncomingHttpHeaders }[];
  close(): Promise<void>;
}

export async function startGitHttpServer(
  root: string,
  git: string,
  allow: (headers: IncomingHttpHeaders) => boolean,
  /** Every request is answered 302 to this origin (same path) instead. */
  redirectTo?: string,
): Promise<GitHttpServer> {
  const requests: GitHttpServer['requests'] = [];
  const server: Server = createServer((req, res) => {
    requests.push({ path: req.url ?? '', headers: req.headers });
    if (redirectTo !== undefined) {
      req.resume();
      res.writeHead(302, { location: `${redirectTo}${req.url ?? '/'}` });
      res.end();
      return;
    }
    if (!allow(req.headers)) {
      req.resume();
      res.writeHead(401, { 'www-authenticate': 'Basic realm="private"' });
      res.end('authentication required\n');
      return;
    }
    const url = new URL(req.url ?? '/', 'http://localhost');
    const cgi = spawn(git, ['http-backend'], {
      env: {
        PATH: process.env.PATH ?? '',
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: '1',
        GIT_CONFIG_NOSYSTEM: '1',
        HOME: root,
        REQUEST_METHOD: req.method ?? 'GET',
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        ...(req.headers['content-length'] === undefined
          ? {}
          : { CONTENT_LENGTH: req.headers['content-length'] }),
        HTTP_CONTENT_ENCODING: req.headers['content-encoding'] ?? '',
        HTTP_GIT_PROTOCOL: String(req.headers['git-protocol'] ?? ''),
        REMOTE_ADDR: '127.0.0.1',
        SERVER_PROTOCOL: 'HTTP/1.1',
      },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    req.pipe(cgi.stdin);
    const chunks: Buffer[] = [];
    cgi.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    cgi.on('close', () => {
      const out = Buffer.concat(chunks);
      const split = out.indexOf('\r\n\r\n');
      const head = split < 0 ? '' : out.subarray(0, split).toString('latin1');
      const body = split < 0 ? out : out.subarray(split + 4);
      let status = 200;
      const headers: Record<string, string> = {};
      for (const line of head.split('\r\n')) {
        const colon = line.indexOf(':');
        if (colon < 0) continue;
        const name = line.slice(0, colon).trim();
        const value = line.slice(colon + 1).trim();
        if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
        else headers[name] = value;
      }
      res.writeHead(status, headers);
      res.end(body);
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
