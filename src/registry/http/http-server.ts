import { realpath, stat, type FileHandle } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname } from 'node:path';
import { HookpmError } from '../../errors.js';
import type { ServedFiles } from './http-served-files.js';
import { openServedFile } from './http-open-file.js';
import { clip } from '../../text/clip.js';

export interface ServeOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Called once per request, when its response has been sent (or the connection closed). */
  onRequest?: (served: ServedRequest) => void;
  /** A client that reads no byte of a body for this long is dropped; default IDLE_TIMEOUT_MS. */
  idleTimeoutMs?: number;
  /** A client that has not sent a request's headers within this is dropped; HEADERS_TIMEOUT_MS. */
  headersTimeoutMs?: number;
  /** Connections open at once; one more is closed as it opens. Default MAX_CONNECTIONS. */
  maxConnections?: number;
}

/** One request as served, for a request log. */
export interface ServedRequest {
  method: string;
  /** The request target as received (not decoded). */
  path: string;
  status: number;
  /** Body bytes sent (0 for HEAD and 304). */
  bytes: number;
  durationMs: number;
}

export interface RegistryServer {
  /** `http://127.0.0.1:<port>/`, with the trailing slash. */
  url: string;
  port: number;
  close(): Promise<void>;
}

const HOST = '127.0.0.1';
/** A client that reads no byte of a body for this long is dropped. */
const IDLE_TIMEOUT_MS = 30_000;
/**
 * A client that has not sent a whole request's headers this long after it began is dropped (a
 * slowloris client sending a header byte at a time holds a connection no longer); a GET or HEAD
 * has no body, so the whole request is bounded by REQUEST_TIMEOUT_MS, with headers no later.
 */
const HEADERS_TIMEOUT_MS = 10_000;
const REQUEST_TIMEOUT_MS = 30_000;
/**
 * Connections held at once: past it a new one is closed as it opens, so no number of idle or slow
 * clients holds more descriptors than this (a local registry for trying things out has a handful).
 */
const MAX_CONNECTIONS = 256;
/** The Host names a request may give (with any port): the loopback address it listens on. */
const LOOPBACK_HOST = /^(localhost|127\.0\.0\.1|\[::1\])(:\d{1,5})?$/i;

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.json': 'application/json; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.tgz': 'application/gzip',
  '.gz': 'application/gzip',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/plain; charset=utf-8',
};

/**
 * `hookpm registry serve` (cli.md): serves the files of the registry directory `dir` over HTTP on
 * 127.0.0.1 only. GET and HEAD; `/` is `index.html`; content types by extension (JSON, HTML,
 * gzip, else application/octet-stream) with `nosniff`; a strong ETag from the SHA-256 of the
 * content, kept while the file's size, mtime and inode stay (N10: an unchanged file is not hashed
 * again), and 304 for a matching If-None-Match (registry.md N4); JSON and text gzip-compressed
 * for a client that accepts it (another ETag for that representation, `Vary: Accept-Encoding`);
 * `Cache-Control: no-cache` so clients revalidate. Any path with a segment starting with `.` (raw
 * or percent-encoded: `..`, `.git`), an empty segment, a backslash or NUL, or that resolves (after
 * symlinks) outside `dir`, is 404, as is a directory, a FIFO, a device or a socket
 * (openServedFile: never waited on, never read). A client that reads no byte of a body for
 * `idleTimeoutMs` is dropped. A request whose Host is not a loopback name is 421 (DNS rebinding);
 * headers must arrive within `headersTimeoutMs`, and at most `maxConnections` are held at once.
 * `onRequest` sees every request once its response is sent (a request log). `dir` is resolved at
 * each request (a symlink re-pointed to a new build serves that build). Throws E_NOT_FOUND when
 * `dir` is not a directory at start (later, a request while it is none is 404), E_IO when the port
 * is taken.
 */
export async function serveRegistry(dir: string, opts: ServeOptions = {}): Promise<RegistryServer> {
  await realRoot(dir);
  const { createServedFiles } = await import('./http-served-files.js');
  const files = createServedFiles();
  const headersTimeout = opts.headersTimeoutMs ?? HEADERS_TIMEOUT_MS;
  const server = createServer(
    {
      headersTimeout,
      requestTimeout: Math.max(REQUEST_TIMEOUT_MS, headersTimeout),
      // The timeouts above are enforced at this interval: checked often enough to hold them.
      connectionsCheckingInterval: Math.min(1000, headersTimeout),
    },
    (req, res) => {
      if (opts.onRequest !== undefined) watch(req, res, opts.onRequest);
      // DNS rebinding: a web page whose host name an attacker points at 127.0.0.1 reaches this
      // port from the browser with its own name as Host. Only a loopback name is answered.
      if (!LOOPBACK_HOST.test(req.headers.host ?? '')) {
        return send(res, 421, 'misdirected request: Host must be localhost or 127.0.0.1\n');
      }
      // `dir` is resolved at each request: a symlink re-pointed to a new build (an atomic deploy)
      // is served as a static server serves it; a directory gone since is 404.
      currentRoot(dir)
        .then((root) =>
          root === null
            ? send(res, 404, 'not found\n')
            : handle(root, files, req, res, opts.idleTimeoutMs ?? IDLE_TIMEOUT_MS),
        )
        .catch(() => send(res, 500, 'internal error\n'));
    },
  );
  server.maxConnections = opts.maxConnections ?? MAX_CONNECTIONS;
  await new Promise<void>((resolvePromise, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new HookpmError(
          'E_IO',
          `cannot listen on ${HOST}:${opts.port ?? 0}: ${error.code ?? error.message}`,
          {
            hint: 'Choose another port with --port, or 0 for any free one.',
          },
        ),
      ),
    );
    server.listen(opts.port ?? 0, HOST, () => resolvePromise());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${HOST}:${port}/`,
    port,
    close: () =>
      new Promise<void>((resolvePromise) => {
        server.close(() => resolvePromise());
        server.closeAllConnections();
      }),
  };
}

/** Reports `req` once, when its response finished or its connection closed before that. */
function watch(
  req: IncomingMessage,
  res: ServerResponse,
  onRequest: (served: ServedRequest) => void,
): void {
  const started = process.hrtime.bigint();
  let reported = false;
  const report = (): void => {
    if (reported) return;
    reported = true;
    const length = Number(res.getHeader('Content-Length') ?? 0);
    const bodySent = req.method !== 'HEAD' && res.statusCode !== 304 && res.writableFinished;
    onRequest({
      method: req.method ?? '',
      path: req.url ?? '',
      status: res.statusCode,
      bytes: bodySent && Number.isFinite(length) ? length : 0,
      durationMs: Number(process.hrtime.bigint() - started) / 1e6,
    });
  };
  res.once('finish', report);
  res.once('close', report);
}

/** The real path of `dir` now, when it is a directory; null otherwise. */
async function currentRoot(dir: string): Promise<string | null> {
  try {
    const real = await realpath(dir);
    return (await stat(real)).isDirectory() ? real : null;
  } catch {
    return null;
  }
}

/** `dir` as currentRoot finds it, or E_NOT_FOUND: a server is never started on nothing. */
async function realRoot(dir: string): Promise<string> {
  const real = await currentRoot(dir);
  if (real !== null) return real;
  throw new HookpmError(
    'E_NOT_FOUND',
    `registry directory ${clip(dir)} does not exist or is not a directory`,
    {
      file: dir,
      hint: 'Build one first: hookpm registry build <plugins-dir> --out <dir>.',
    },
  );
}

async function handle(
  root: string,
  files: ServedFiles,
  req: IncomingMessage,
  res: ServerResponse,
  idleTimeoutMs: number,
): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('Allow', 'GET, HEAD');
    return send(res, 405, 'method not allowed\n');
  }
  const segments = pathSegments(req.url ?? '');
  const opened = segments === null ? null : await openServedFile(root, segments);
  if (opened === null) return send(res, 404, 'not found\n');
  const { file } = opened;
  const type = CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
  const gzip = COMPRESSIBLE.test(type) && acceptsGzip(req.headers['accept-encoding']);
  let streaming = false;
  try {
    const served = await files.get(file, opened.handle, gzip, (etag) =>
      matchesEtag(req.headers['if-none-match'], etag),
    );
    res.setHeader('ETag', served.etag);
    res.setHeader('Cache-Control', 'no-cache');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    if (COMPRESSIBLE.test(type)) res.setHeader('Vary', 'Accept-Encoding');
    if (served.body === null) {
      res.writeHead(304);
      res.end();
      return;
    }
    res.setHeader('Content-Type', type);
    if (served.encoding === 'gzip') res.setHeader('Content-Encoding', 'gzip');
    const length = typeof served.body === 'number' ? served.body : served.body.length;
    res.setHeader('Content-Length', String(length));
    // From here on only the client can be slow (the file is hashed): one that stops reading is
    // dropped, so it holds the connection and the file for no longer.
    res.setTimeout(idleTimeoutMs, () => res.destroy());
    res.writeHead(200);
    if (req.method === 'HEAD' || length === 0) res.end();
    else if (typeof served.body !== 'number') res.end(served.body);
    else {
      streaming = true;
      streamFile(opened.handle, length, res);
    }
  } finally {
    if (!streaming) await opened.handle.close();
  }
}

/**
 * Streams the first `size` bytes of `handle` as the body of `res` at the pace the client reads (a
 * client that stops reading holds a chunk, not the file), and closes the handle when done. A file
 * that ends sooner (it shrank meanwhile) or cannot be read ends the connection, so the client sees
 * a short body instead of waiting for the bytes Content-Length promised.
 */
function streamFile(handle: FileHandle, size: number, res: ServerResponse): void {
  const stream = handle.createReadStream({ start: 0, end: size - 1 });
  if (res.destroyed) {
    stream.destroy();
    return;
  }
  stream.pipe(res, { end: false });
  stream.once('end', () => (stream.bytesRead === size ? res.end() : res.destroy()));
  stream.once('error', () => res.destroy());
  res.once('close', () => stream.destroy());
}

const COMPRESSIBLE = /^(application\/json|text\/)/;

/** Accept-Encoding names gzip with a q-value above 0. */
function acceptsGzip(header: string | undefined): boolean {
  if (header === undefined) return false;
  return header.split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    if (coding !== 'gzip' && coding !== 'x-gzip') return false;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

/**
 * The decoded path segments of a request target, or null when it must not be served: not
 * origin-form (`/...`), undecodable, or with an empty segment, one starting with `.` (`.`, `..` and
 * dotfiles: a registry kept in git has a `.git/config` that may hold a token, a build its lock and
 * scratch folder), `/`, `\` or NUL after decoding. `/` alone is `index.html`. Deliberately not
 * WHATWG URL parsing, which would quietly resolve `/%2e%2e/` instead of refusing it.
 */
export function pathSegments(target: string): string[] | null {
  const path = target.split(/[?#]/, 1)[0] ?? '';
  if (!path.startsWith('/')) return null;
  if (path === '/') return ['index.html'];
  const segments: string[] = [];
  for (const raw of path.slice(1).split('/')) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return null;
    }
    if (segment === '' || segment.startsWith('.') || /[/\\\0]/.test(segment)) return null;
    segments.push(segment);
  }
  return segments;
}

/** If-None-Match: `*` or a list of entity tags, compared weakly (RFC 9110 section 13.1.2). */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

function send(res: ServerResponse, status: number, text: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('Content-Length', String(Buffer.byteLength(text)));
  res.writeHead(status);
  res.end(text);
}
