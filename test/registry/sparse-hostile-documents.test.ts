/**
 * A hostile sparse registry (registry.md N7, N8, I1, I2): its documents are read as strictly as an
 * index. A plugin document whose bytes say two things at once (a repeated key, last one winning
 * under JSON.parse) or nest past the parser's cap is E_REGISTRY_SCHEMA, and never enters the
 * cache; so is a search manifest naming a page by a path too long to cache, or one page twice. A
 * plugin its search pages list more than once is one search result.
 */
import { createServer, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { addRegistry } from '../../src/ops/registries/add.js';
import { buildRegistry } from '../../src/ops/registries/build.js';
import { describePlugin } from '../../src/ops/plugins/info.js';
import { searchPlugins } from '../../src/ops/registries/search.js';
import { sparseCacheDir } from '../../src/registry/sparse/cache-sparse.js';
import { indexCacheDir } from '../../src/store/paths.js';
import { useSparseWorld } from '../helpers/sparse-world.js';
import { writeSparseRegistry } from '../helpers/sparse-registry.js';

const GUARD = fileURLToPath(new URL('../../registry-fixtures/plugins/guard', import.meta.url));

const world = useSparseWorld('hookpm-sparse-hostile-');
let server: Server | null = null;
/** The URL paths the hostile server was asked for, in order. */
const requests: string[] = [];

afterEach(async () => {
  await new Promise((done) => (server === null ? done(null) : server.close(done)));
  server = null;
  requests.length = 0;
});

/**
 * Serves a written sparse registry from 127.0.0.1, each file named in `replace` (by its URL path)
 * replaced by what the function makes of the real file's text (null: the real file is served).
 * A path `drip` matches is sent slowly: its first 10 bytes one at a time, 20 ms apart, then the
 * rest. Returns the root document's URL.
 */
async function hostile(
  replace: Record<string, (real: string | null) => string | null>,
  drip: RegExp | null = null,
): Promise<string> {
  const dir = join(world.root, 'reg');
  await writeSparseRegistry(dir, 10, GUARD);
  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    requests.push(path);
    const change = replace[path];
    void readFile(join(dir, path), 'utf8')
      .catch(() => null)
      .then((real) => {
        const body = change === undefined ? real : (change(real) ?? real);
        res.writeHead(body === null ? 404 : 200, { 'content-type': 'application/json' });
        if (body === null || drip === null || !drip.test(path)) return res.end(body);
        const bytes = Buffer.from(body);
        let sent = 0;
        const tick = setInterval(() => {
          if (res.destroyed) return clearInterval(tick);
          if (sent < 10) res.write(bytes.subarray(sent, (sent += 1)));
          else {
            clearInterval(tick);
            res.end(bytes.subarray(sent));
          }
        }, 20);
      });
  });
  await new Promise<void>((done) => server?.listen(0, '127.0.0.1', () => done()));
  const { port } = server.address() as { port: number };
  return `http://127.0.0.1:${port}/registry.json`;
}

/** `hostile` with only guard's plugin document replaced. */
const hostileGuard = (change: (real: string) => string): Promise<string> =>
  hostile({ '/plugins/gu/guard.json': (real) => change(real ?? '') });

async function cachedPluginDocuments(): Promise<string[]> {
  const dir = join(sparseCacheDir(indexCacheDir(world.ctx.paths), 'acme'), 'plugins');
  return readdir(dir, { recursive: true }).catch(() => []);
}

describe('a sparse plugin document read strictly (N7, I1)', () => {
  it('N7, I1: a plugin document with a repeated key (another `name` first, the asked one last) is E_REGISTRY_SCHEMA and is not cached', async () => {
    const url = await hostileGuard((real) => `{"name":"evil",${real.slice(1)}`);
    await addRegistry(world.ctx, { name: 'acme', location: url, cwd: world.root });
    await expect(describePlugin(world.ctx, 'guard@acme')).rejects.toMatchObject({
      code: 'E_REGISTRY_SCHEMA',
      message: expect.stringContaining('duplicate key "name"'),
    });
    expect(await cachedPluginDocuments()).toEqual([]);
  });

  it('N7, I1: a version listed twice under the same key is E_REGISTRY_SCHEMA, as in index.json', async () => {
    const url = await hostileGuard((real) => {
      const doc = JSON.parse(real) as { versions: Record<string, unknown> };
      const [version, entry] = Object.entries(doc.versions)[0] as [string, unknown];
      const bad = JSON.stringify({ ...(entry as object), integrity: `sha512-${'A'.repeat(86)}==` });
      return real.replace(`"versions":{`, `"versions":{"${version}":${bad},`);
    });
    await addRegistry(world.ctx, { name: 'acme', location: url, cwd: world.root });
    await expect(describePlugin(world.ctx, 'guard@acme')).rejects.toMatchObject({
      code: 'E_REGISTRY_SCHEMA',
    });
    expect(await cachedPluginDocuments()).toEqual([]);
  });

  it('N7, I2: a plugin document nested 100,000 levels deep is E_REGISTRY_SCHEMA and is not cached', async () => {
    const deep = `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`;
    const url = await hostileGuard((real) => `{"extra":${deep},${real.slice(1)}`);
    await addRegistry(world.ctx, { name: 'acme', location: url, cwd: world.root });
    await expect(describePlugin(world.ctx, 'guard@acme')).rejects.toMatchObject({
      code: 'E_REGISTRY_SCHEMA',
      message: expect.stringContaining('nesting deeper than'),
    });
    expect(await cachedPluginDocuments()).toEqual([]);
  });
});

describe('a sparse search manifest (N8)', () => {
  it('N8: a manifest naming a page by a path too long to cache is E_REGISTRY_SCHEMA for that registry, not a failed write in the store', async () => {
    const long = `${'x'.repeat(300)}.json`;
    const url = await hostile({
      '/search/index.json': (real) => {
        const manifest = JSON.parse(real ?? '') as { shards: Array<{ path: string }> };
        for (const shard of manifest.shards) shard.path = long;
        return JSON.stringify(manifest);
      },
      [`/search/${long}`]: () => '{"formatVersion":1,"plugins":[]}',
    });
    await addRegistry(world.ctx, { name: 'acme', location: url, cwd: world.root });
    const found = await searchPlugins(world.ctx, { query: 'guard' });
    expect(found.warnings).toEqual([
      expect.objectContaining({ code: 'E_REGISTRY_SCHEMA', registry: 'acme' }),
    ]);
    expect(found.warnings[0]?.message).toContain('longer than 200 bytes');
    const search = join(sparseCacheDir(indexCacheDir(world.ctx.paths), 'acme'), 'search');
    expect(await readdir(search).catch(() => [])).toEqual([]);
  });

  it('N8: a manifest listing one page path again and again is E_REGISTRY_SCHEMA before any page is asked for', async () => {
    const url = await hostile({
      '/search/index.json': (real) => {
        const manifest = JSON.parse(real ?? '') as { shards: Array<{ path: string }> };
        const page = manifest.shards[0];
        manifest.shards = Array.from({ length: 100 }, () => ({
          ...page,
          hash: `sha256-${'A'.repeat(43)}`,
        }));
        return JSON.stringify(manifest);
      },
    });
    await addRegistry(world.ctx, { name: 'acme', location: url, cwd: world.root });
    const found = await searchPlugins(world.ctx, { query: 'guard' });
    expect(found.warnings).toEqual([
      expect.objectContaining({ code: 'E_REGISTRY_SCHEMA', registry: 'acme' }),
    ]);
    expect(found.warnings[0]?.message).toContain('shards.1.path repeats the path of shards.0');
    expect(requests.filter((p) => p.startsWith('/search/') && p !== '/search/index.json')).toEqual(
      [],
    );
  });

  it('N8: a plugin listed by two search pages, or twice in one, is one result, as first listed', async () => {
    const search = join(world.root, 'reg', 'search');
    type Page = { plugins: Array<{ name: string; description: string }> };
    /** The real first page of the manifest the registry was written with. */
    const firstPage = (): Page => {
      const written = JSON.parse(readFileSync(join(search, 'index.json'), 'utf8')) as {
        shards: Array<{ path: string }>;
      };
      return JSON.parse(readFileSync(join(search, written.shards[0]!.path), 'utf8')) as Page;
    };
    const url = await hostile({
      '/search/index.json': (real) => {
        const served = JSON.parse(real ?? '') as { shards: Array<{ path: string }> };
        const first = served.shards[0]!;
        served.shards = [first, { ...first, path: 'again.json' }, { ...first, path: 'twice.json' }];
        return JSON.stringify(served);
      },
      '/search/again.json': () => {
        const page = firstPage();
        const again = page.plugins.map((p) => ({ ...p, description: 'listed again' }));
        return JSON.stringify({ ...page, plugins: again });
      },
      '/search/twice.json': () => {
        const page = firstPage();
        return JSON.stringify({ ...page, plugins: [...page.plugins, ...page.plugins] });
      },
    });
    await addRegistry(world.ctx, { name: 'acme', location: url, cwd: world.root });
    const found = await searchPlugins(world.ctx, { query: '' });
    const page = firstPage();
    expect(found.warnings).toEqual([]);
    expect(found.results.map((hit) => hit.name)).toEqual(page.plugins.map((p) => p.name));
    expect(found.results.map((hit) => hit.description)).toEqual(
      page.plugins.map((p) => p.description),
    );
  });

  it('N1, N11: pages that each arrive a byte at a time end the search at one deadline for all of them, naming the registry', async () => {
    const pages = 40;
    const search = join(world.root, 'reg', 'search');
    const firstPage = (): string => {
      const written = JSON.parse(readFileSync(join(search, 'index.json'), 'utf8')) as {
        shards: Array<{ path: string }>;
      };
      return readFileSync(join(search, written.shards[0]!.path), 'utf8');
    };
    const replace: Record<string, (real: string | null) => string | null> = {
      '/search/index.json': (real) => {
        const served = JSON.parse(real ?? '') as { shards: Array<{ path: string }> };
        const first = served.shards[0]!;
        served.shards = Array.from({ length: pages }, (_, i) => ({ ...first, path: `p${i}.json` }));
        return JSON.stringify(served);
      },
    };
    for (let i = 0; i < pages; i += 1) replace[`/search/p${i}.json`] = () => firstPage();
    const url = await hostile(replace, /^\/search\/p\d+\.json$/);
    await addRegistry(world.ctx, { name: 'acme', location: url, cwd: world.root });
    // Each page takes about 200 ms, well within the deadline; 40 of them, 8 at a time, do not.
    world.ctx = { ...world.ctx, fetch: { retries: 0, deadlineMs: 500 } };
    const found = await searchPlugins(world.ctx, { query: '' });
    expect(found.warnings).toEqual([
      expect.objectContaining({ code: 'E_REGISTRY_TIMEOUT', registry: 'acme' }),
    ]);
    expect(found.warnings[0]?.message).toMatch(
      /^searching the registry acme \(http:\/\/127\.0\.0\.1:\d+\/search\/index\.json\) did not finish within the deadline of 500 ms: \d+ of 40 search page\(s\) fetched/,
    );
  });

  it('N8: a search page that fails stops the fetching: no page is asked for after it, in a host that goes on running', async () => {
    const pages = 200;
    const replace: Record<string, (real: string | null) => string | null> = {
      '/search/index.json': (real) => {
        const served = JSON.parse(real ?? '') as { shards: Array<{ path: string }> };
        const first = served.shards[0]!;
        served.shards = [
          { ...first, path: 'missing.json' },
          ...Array.from({ length: pages }, (_, i) => ({ ...first, path: `p${i}.json` })),
        ];
        return JSON.stringify(served);
      },
    };
    const search = join(world.root, 'reg', 'search');
    for (let i = 0; i < pages; i += 1)
      replace[`/search/p${i}.json`] = () => {
        const written = JSON.parse(readFileSync(join(search, 'index.json'), 'utf8')) as {
          shards: Array<{ path: string }>;
        };
        return readFileSync(join(search, written.shards[0]!.path), 'utf8');
      };
    const url = await hostile(replace);
    await addRegistry(world.ctx, { name: 'acme', location: url, cwd: world.root });
    const asked = () => requests.filter((p) => /^\/search\/p\d+\.json$/.test(p)).length;
    const found = await searchPlugins(world.ctx, { query: '' });
    const atAnswer = asked();
    expect(found.warnings).toEqual([expect.objectContaining({ registry: 'acme' })]);
    // Only what was in flight then (one page for each of the other 7 workers) still arrives.
    await new Promise((done) => setTimeout(done, 500));
    expect(asked() - atAnswer).toBeLessThanOrEqual(7);
  });
});

/**
 * Serves a written registry under `/v2/` from 127.0.0.1, `/latest/<file>` redirecting there; with
 * `sparse` false it is a registry build without the sparse layout, read through its index.json.
 * Returns the base URL.
 */
async function redirecting(sparse: boolean): Promise<string> {
  const dir = join(world.root, 'reg');
  if (sparse) await writeSparseRegistry(dir, 3, GUARD);
  else await buildRegistry({ pluginsDir: dirname(GUARD), outDir: dir, sparse: false });
  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    requests.push(path);
    if (path.startsWith('/latest/')) {
      res.writeHead(302, { location: `/v2/${path.slice('/latest/'.length)}` });
      return res.end();
    }
    const file = path.startsWith('/v2/') ? path.slice('/v2'.length) : null;
    void (file === null ? Promise.resolve(null) : readFile(join(dir, file)).catch(() => null)).then(
      (body) => {
        res.writeHead(body === null ? 404 : 200);
        res.end(body);
      },
    );
  });
  await new Promise<void>((done) => server?.listen(0, '127.0.0.1', () => done()));
  const { port } = server.address() as { port: number };
  return `http://127.0.0.1:${port}/`;
}

describe('a registry reached through a same-origin redirect (N2, N6)', () => {
  it('N2, N6: sparse documents and tarballs resolve against the URL the root was read from after the redirect, from the cache too', async () => {
    const base = await redirecting(true);
    const location = `${base}latest/registry.json`;
    await addRegistry(world.ctx, { name: 'acme', location, cwd: world.root });
    for (const round of ['network', 'cache']) {
      const info = await describePlugin(world.ctx, 'guard@acme');
      expect(JSON.stringify(info), round).toContain(`${base}v2/tarballs/guard-`);
    }
    expect(requests.filter((p) => p.startsWith('/plugins/'))).toEqual([]);
  });

  it('N2, I3: tarballs of an index.json resolve against the URL it was read from after the redirect, from the cache too', async () => {
    const base = await redirecting(false);
    await addRegistry(world.ctx, { name: 'acme', location: `${base}latest/`, cwd: world.root });
    for (const round of ['network', 'cache']) {
      const info = await describePlugin(world.ctx, 'guard@acme');
      expect(JSON.stringify(info), round).toContain(`${base}v2/tarballs/guard-`);
    }
  });
});
