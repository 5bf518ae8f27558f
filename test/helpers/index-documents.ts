/** Small valid registry indexes (registry.md section 2) and a loopback HTTP server that serves them. */
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';

export interface PluginSpec {
  name: string;
  description?: string;
  keywords?: string[];
  /** Version to events; the last one is `latest`. */
  versions?: Record<string, string[]>;
  deprecated?: Record<string, string>;
}

/** An index document holding `plugins`, with valid integrity and surfaceHash fields. */
export function makeIndex(plugins: readonly PluginSpec[], name = 'test'): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const p of plugins) {
    const versions = p.versions ?? { '1.0.0': ['PreToolUse'] };
    const entries: Record<string, unknown> = {};
    for (const [version, events] of Object.entries(versions)) {
      entries[version] = {
        tarball: `tarballs/${p.name}-${version}.tgz`,
        integrity: `sha512-${createHash('sha512').update(`${p.name}@${version}`).digest('base64')}`,
        size: 1024,
        publishedAt: '2026-11-01T00:00:00Z',
        events,
        surfaceHash: `sha256-${createHash('sha256').update(`${p.name}@${version}`).digest('base64')}`,
        ...(p.deprecated?.[version] === undefined ? {} : { deprecated: p.deprecated[version] }),
      };
    }
    const latest = Object.keys(versions).at(-1) as string;
    out[p.name] = {
      ...(p.description === undefined ? {} : { description: p.description }),
      keywords: p.keywords ?? [],
      distTags: { latest },
      versions: entries,
    };
  }
  return { formatVersion: 1, name, description: `${name} plugins`, plugins: out };
}

/** The plugins most tests use. */
export const SAMPLE_PLUGINS: readonly PluginSpec[] = [
  {
    name: 'guard',
    description: 'Blocks destructive shell commands',
    keywords: ['safety', 'shell'],
    versions: { '1.1.0': ['PreToolUse'], '1.2.0': ['PreToolUse', 'SessionStart'] },
  },
  {
    name: 'audit-log',
    description: 'Writes every tool call to a log',
    keywords: ['audit'],
    versions: { '0.3.0': ['PostToolUse'] },
  },
  {
    name: 'notify-on-stop',
    description: 'Desktop notification when the agent stops',
    keywords: ['notify'],
    versions: { '2.0.0': ['Stop'] },
  },
];

export interface IndexServer {
  url: string;
  /** Requests seen, with their If-None-Match header. */
  requests: Array<{ path: string; ifNoneMatch: string | undefined }>;
  /** What GET /index.json answers now: a body (served with `etag`), or a custom handler. */
  serve: (
    body: string | ((req: IncomingMessage, res: ServerResponse) => void),
    etag?: string,
  ) => void;
  close: () => Promise<void>;
}

/**
 * The requests for /index.json alone: `registry add` of a base URL first asks for the sparse root
 * `/registry.json` (registry.md N6), which this server answers 404.
 */
export function indexRequests(s: IndexServer): IndexServer['requests'] {
  return s.requests.filter((r) => r.path === '/index.json');
}

/** A node:http server on 127.0.0.1 serving /index.json with ETag and 304 support (N4). */
export async function startIndexServer(): Promise<IndexServer> {
  let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => {
    res.statusCode = 404;
    res.end();
  };
  const requests: IndexServer['requests'] = [];
  const server: Server = createServer((req, res) => {
    const header = req.headers['if-none-match'];
    requests.push({ path: req.url ?? '', ifNoneMatch: Array.isArray(header) ? header[0] : header });
    if (req.url !== '/index.json') {
      res.statusCode = 404;
      return res.end();
    }
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  const serve: IndexServer['serve'] = (body, etag) => {
    if (typeof body !== 'string') {
      handler = body;
      return;
    }
    handler = (req, res) => {
      if (etag !== undefined && req.headers['if-none-match'] === etag) {
        res.statusCode = 304;
        return res.end();
      }
      res.setHeader('content-type', 'application/json');
      if (etag !== undefined) res.setHeader('etag', etag);
      res.end(body);
    };
  };
  const close = async (): Promise<void> => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  return { url: `http://127.0.0.1:${address.port}/`, requests, serve, close };
}
