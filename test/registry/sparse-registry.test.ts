/**
 * The sparse registry layout (docs/reference/rules/registry.md N6-N12): `registry build` writes it
 * incrementally, `registry serve` serves it with gzip and kept ETags, a plain static server
 * (python3 -m http.server) serves it too, and the client reads only what a command needs: the
 * root for `registry add`, one plugin document for install and info, the search shards for search.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { addRegistry } from '../../src/ops/registries/add.js';
import { buildRegistry } from '../../src/ops/registries/build.js';
import { searchPlugins } from '../../src/ops/registries/search.js';
import { describePlugin } from '../../src/ops/plugins/info.js';
import type { OperationContext } from '../../src/ops/steps/context/operation-context.js';
import {
  serveRegistry,
  type RegistryServer,
  type ServedRequest,
} from '../../src/registry/http/http-server.js';
import { sparseCacheDir } from '../../src/registry/sparse/cache-sparse.js';
import { indexCacheDir, resolveStorePaths } from '../../src/store/paths.js';
import { readState } from '../../src/store/state/state.js';
import { installSpecs } from '../helpers/registry-world.js';
import { failure } from '../helpers/failure.js';
import { useSparseWorld } from '../helpers/sparse-world.js';
import { writeSparseRegistry } from '../helpers/sparse-registry.js';

const PLUGINS = fileURLToPath(new URL('../../registry-fixtures/plugins', import.meta.url));
const GUARD = join(PLUGINS, 'guard');

const world = useSparseWorld('hookpm-sparse-');

async function serve(dir: string): Promise<{ server: RegistryServer; log: ServedRequest[] }> {
  const log: ServedRequest[] = [];
  const server = await serveRegistry(dir, { onRequest: (r) => log.push(r) });
  world.closers.push(() => server.close());
  return { server, log };
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((done) => probe.listen(0, '127.0.0.1', () => done()));
  const port = (probe.address() as { port: number }).port;
  await new Promise<void>((done) => probe.close(() => done()));
  return port;
}

/** `python3 -m http.server` on 127.0.0.1 serving `dir`: a plain static server (no gzip, no ETag). */
async function pythonServer(dir: string): Promise<{ url: string; log: () => string[] }> {
  const port = await freePort();
  let output = '';
  const child: ChildProcess = spawn(
    'python3',
    ['-m', 'http.server', String(port), '--bind', '127.0.0.1', '--directory', dir],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  world.closers.push(async () => {
    child.kill('SIGTERM');
    await new Promise((done) => child.once('exit', done));
  });
  const url = `http://127.0.0.1:${port}/`;
  for (let i = 0; i < 100; i += 1) {
    const ok = await fetch(url).then(
      () => true,
      () => false,
    );
    if (ok) break;
    await new Promise((done) => setTimeout(done, 50));
  }
  const log = (): string[] => [...output.matchAll(/"GET (\S+) HTTP/g)].map((m) => m[1] as string);
  return { url, log };
}

const install = (c: OperationContext, spec: string) =>
  installSpecs(c, world.root, [spec], { enable: 'yes' });

describe('sparse layout: registry build (N9)', () => {
  it('N9: build writes the root, one document per plugin by prefix and the search shards; a rebuild rewrites only what changed and removes what went', async () => {
    const out = join(world.root, 'out');
    const src = join(world.root, 'src');
    const { cp } = await import('node:fs/promises');
    for (const name of ['guard', 'audit-log', 'notify-on-stop'])
      await cp(join(PLUGINS, name), join(src, name), { recursive: true });
    const opts = {
      pluginsDir: src,
      outDir: out,
      name: 'acme',
      publishedAt: '2026-11-01T00:00:00Z',
    };
    const first = await buildRegistry(opts);
    expect(first.sparse?.written).toEqual(
      expect.arrayContaining([
        'registry.json',
        'plugins/gu/guard.json',
        'plugins/au/audit-log.json',
        'search/gu.json',
        'search/index.json',
      ]),
    );
    const rootDoc = JSON.parse(await readFile(join(out, 'registry.json'), 'utf8'));
    expect(rootDoc).toEqual({
      formatVersion: 1,
      layout: 'sparse',
      name: 'acme',
      plugins: 'plugins/',
      search: 'search/index.json',
      pluginCount: 3,
    });
    const guardDoc = JSON.parse(await readFile(join(out, 'plugins/gu/guard.json'), 'utf8'));
    const index = JSON.parse(await readFile(join(out, 'index.json'), 'utf8'));
    expect(guardDoc).toEqual({ name: 'guard', ...index.plugins.guard });

    const again = await buildRegistry(opts);
    expect(again.sparse?.written).toEqual([]);
    const auditBefore = (await stat(join(out, 'plugins/au/audit-log.json'))).mtimeMs;

    await rm(join(src, 'notify-on-stop'), { recursive: true });
    const manifest = join(src, 'guard', '.claude-plugin', 'plugin.json');
    const doc = JSON.parse(await readFile(manifest, 'utf8'));
    await writeFile(manifest, JSON.stringify({ ...doc, description: 'A changed description' }));
    const third = await buildRegistry(opts);
    expect(third.sparse?.written.sort()).toEqual([
      'plugins/gu/guard.json',
      'registry.json',
      'search/gu.json',
      'search/index.json',
    ]);
    expect(third.sparse?.removed).toEqual(['plugins/no/notify-on-stop.json', 'search/no.json']);
    expect((await stat(join(out, 'plugins/au/audit-log.json'))).mtimeMs).toBe(auditBefore);
  });
});

describe('sparse layout: search pages (N8)', () => {
  it('N8: a crowded prefix is split into pages of bounded size, and search reads every page', async () => {
    const { sparseDocuments, SEARCH_PAGE_BYTES } =
      await import('../../src/registry/sparse/sparse-documents.js');
    const { generatedPlugin } = await import('../helpers/sparse-registry.js');
    const plugins: Record<string, ReturnType<typeof generatedPlugin>['plugin']> = {};
    for (let i = 0; i < 3_000; i += 1) {
      const { plugin } = generatedPlugin(i);
      plugins[`claude-${String(i).padStart(4, '0')}`] = {
        ...plugin,
        description: `${'a long description '.repeat(20)}${i}`,
      };
    }
    const files = sparseDocuments({ formatVersion: 1, name: 'crowd', plugins });
    const manifest = JSON.parse(files.get('search/index.json') ?? '') as {
      shards: Array<{ key: string; path: string; rows: number }>;
    };
    expect(manifest.shards.length).toBeGreaterThan(2);
    expect(manifest.shards.every((p) => p.key === 'cl')).toBe(true);
    expect(manifest.shards.slice(0, 2).map((p) => p.path)).toEqual(['cl.json', 'cl-2.json']);
    expect(manifest.shards.reduce((n, p) => n + p.rows, 0)).toBe(3_000);
    for (const page of manifest.shards)
      expect((files.get(`search/${page.path}`) ?? '').length).toBeLessThan(
        SEARCH_PAGE_BYTES + 1024,
      );

    const dir = join(world.root, 'crowd');
    // Written synchronously: a promise per file costs several times the CPU of the write.
    const { mkdirSync, writeFileSync } = await import('node:fs');
    const made = new Set<string>();
    for (const [path, body] of files) {
      const parent = join(dir, path, '..');
      if (!made.has(parent)) mkdirSync(parent, { recursive: true });
      made.add(parent);
      writeFileSync(join(dir, path), body);
    }
    const { server } = await serve(dir);
    await addRegistry(world.ctx, {
      name: 'crowd',
      location: `${server.url}registry.json`,
      cwd: world.root,
    });
    const found = await searchPlugins(world.ctx, { query: 'claude' });
    expect(found.results.length).toBe(3_000);
  });
});

describe('sparse layout: registry serve (N10)', () => {
  it('N10, N11: a monolithic index.json from `registry serve` also travels gzip-compressed and is decoded', async () => {
    const out = join(world.root, 'mono');
    await buildRegistry({ pluginsDir: PLUGINS, outDir: out, name: 'mono', sparse: false });
    const { server, log } = await serve(out);
    const added = await addRegistry(world.ctx, {
      name: 'mono',
      location: server.url,
      cwd: world.root,
    });
    expect(added.plugins).toBe(6);
    const size = (await stat(join(out, 'index.json'))).size;
    expect(log.map((r) => [r.path, r.status])).toEqual([
      ['/registry.json', 404],
      ['/index.json', 200],
    ]);
    expect(log[1]?.bytes).toBeLessThan(size / 2);
  });

  it('N10: serve answers gzip to a client that accepts it, 304 for its ETag, and keeps an ETag while size, mtime and inode stay (no re-hash)', async () => {
    const dir = join(world.root, 'reg');
    await writeSparseRegistry(dir, 50, GUARD);
    const file = join(dir, 'search', 'index.json');
    const mtime = new Date('2026-11-01T00:00:00Z');
    await utimes(file, mtime, mtime);
    const { server } = await serve(dir);
    const url = `${server.url}search/index.json`;
    const plain = await fetch(url, { headers: { 'accept-encoding': 'identity' } });
    const bytes = Buffer.from(await plain.arrayBuffer());
    expect(plain.headers.get('content-encoding')).toBeNull();
    const { request } = await import('undici');
    const zipped = await request(url, { headers: { 'accept-encoding': 'gzip' } });
    const body = Buffer.from(await zipped.body.arrayBuffer());
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(body.length).toBeLessThan(bytes.length);
    expect(gunzipSync(body).equals(bytes)).toBe(true);
    const etag = zipped.headers['etag'] as string;
    expect(etag).not.toBe(plain.headers.get('etag'));
    const again = await request(url, {
      headers: { 'accept-encoding': 'gzip', 'if-none-match': etag },
    });
    await again.body.dump();
    expect(again.statusCode).toBe(304);

    // Same size, same mtime, same inode: the kept hash is served, so the file was not read again.
    const edited = bytes.toString('utf8').replace(/"rows":1,/, '"rows":2,');
    expect(edited.length).toBe(bytes.length);
    expect(edited).not.toBe(bytes.toString('utf8'));
    await writeFile(file, edited);
    await utimes(file, mtime, mtime);
    const kept = await fetch(url, { headers: { 'accept-encoding': 'identity' } });
    await kept.arrayBuffer();
    expect(kept.headers.get('etag')).toBe(plain.headers.get('etag'));
    // A changed mtime is a changed file: hashed again, a new ETag.
    const later = new Date(mtime.getTime() + 5_000);
    await utimes(file, later, later);
    const changed = await fetch(url, { headers: { 'accept-encoding': 'identity' } });
    await changed.arrayBuffer();
    expect(changed.headers.get('etag')).not.toBe(plain.headers.get('etag'));
  });
});

describe('sparse layout: the client (N11)', () => {
  it('N11: from a plain python3 http.server: add reads the root only, install one plugin document and its tarball, search the manifest and shards', async () => {
    const dir = join(world.root, 'reg');
    await writeSparseRegistry(dir, 40, GUARD);
    const py = await pythonServer(dir);
    const added = await addRegistry(world.ctx, {
      name: 'big',
      location: `${py.url}registry.json`,
      cwd: world.root,
    });
    expect(added).toMatchObject({ kind: 'index', plugins: 40 });
    expect(py.log()).toEqual(['/', '/registry.json']);
    const installed = await install(world.ctx, 'guard@big');
    expect(installed.installed[0]).toMatchObject({ id: 'guard@big', version: '1.3.0' });
    expect(py.log().slice(2)).toEqual(['/plugins/gu/guard.json', '/tarballs/guard-1.3.0.tgz']);
    const found = await searchPlugins(world.ctx, { query: 'guard' });
    expect(found.results.map((r) => r.id)).toContain('guard@big');
    expect(found.results.length).toBe(40);
    const searched = py.log().slice(4);
    expect(searched[0]).toBe('/search/index.json');
    expect(searched.slice(1).every((p) => /^\/search\/[a-z0-9_]{2}\.json$/.test(p))).toBe(true);
    // A second search within the cache's age asks nothing.
    await searchPlugins(world.ctx, { query: 'scale' });
    expect(py.log().length).toBe(4 + searched.length);
    const info = await describePlugin(world.ctx, 'guard@big');
    expect(info).toMatchObject({ name: 'guard', registry: 'big' });
    const { checkRegistries } = await import('../../src/ops/doctor/registries.js');
    const checks = await checkRegistries(world.ctx.paths, await readState(world.ctx.paths), {
      online: false,
      defaults: {},
    });
    expect(checks).toEqual([expect.objectContaining({ name: 'registry:big', status: 'ok' })]);
  });

  it('N6, N11: a base URL is read through its registry.json first, and stored as that root', async () => {
    const dir = join(world.root, 'reg');
    await writeSparseRegistry(dir, 10, GUARD);
    await writeFile(join(dir, 'index.json'), '{"not": "read"}');
    const { server, log } = await serve(dir);
    await addRegistry(world.ctx, { name: 'base', location: server.url, cwd: world.root });
    expect(log.map((r) => [r.path, r.status])).toEqual([['/registry.json', 200]]);
    const state = await readState(world.ctx.paths);
    expect(state.registries['base']?.location).toBe(`${server.url}registry.json`);
  });

  it('N6: a local directory holding registry.json and no index.json is added and read in the sparse layout, also named by its registry.json or a file: URL', async () => {
    const dir = join(world.root, 'reg');
    await writeSparseRegistry(dir, 10, GUARD);
    const typed = [
      dir,
      join(dir, 'registry.json'),
      `file://${dir}/`,
      `file://${dir}/registry.json`,
    ];
    for (const [i, location] of typed.entries()) {
      const added = await addRegistry(world.ctx, { name: `local${i}`, location, cwd: world.root });
      expect(added).toMatchObject({ kind: 'index', plugins: 10 });
    }
    const state = await readState(world.ctx.paths);
    expect(state.registries['local1']?.location).toBe(dir);
    expect(state.registries['local3']?.location).toBe(`file://${dir}/`);
    expect(await describePlugin(world.ctx, 'guard@local1')).toMatchObject({ name: 'guard' });
    const installed = await install(world.ctx, 'guard@local3');
    expect(installed.installed[0]).toMatchObject({ id: 'guard@local3', version: '1.3.0' });
  });

  it('N6: a registry added by its index.json URL is read through index.json alone, so a host that answers 403 for a missing file (S3) is added; by its base URL, the 403 says so', async () => {
    const fixtures = dirname(PLUGINS);
    const asked: string[] = [];
    // A bucket without public listing: a file it does not have is 403, not 404.
    const bucket = createHttpServer((req, res) => {
      const path = decodeURIComponent((req.url ?? '/').split('?')[0] ?? '/');
      asked.push(path);
      readFile(join(fixtures, path)).then(
        (body) => res.writeHead(200).end(body),
        () => res.writeHead(403).end('<Error><Code>AccessDenied</Code></Error>'),
      );
    });
    await new Promise<void>((done) => bucket.listen(0, '127.0.0.1', () => done()));
    world.closers.push(() => new Promise((done) => bucket.close(() => done())));
    const url = `http://127.0.0.1:${(bucket.address() as { port: number }).port}/`;
    const added = await addRegistry(world.ctx, {
      name: 'bucket',
      location: `${url}index.json`,
      cwd: world.root,
    });
    expect(added).toMatchObject({ kind: 'index', plugins: 6 });
    expect(asked).toEqual(['/index.json']);
    expect((await readState(world.ctx.paths)).registries['bucket']?.location).toBe(url);
    const installed = await install(world.ctx, 'guard@bucket');
    expect(installed.installed[0]).toMatchObject({ id: 'guard@bucket', version: '1.3.0' });
    expect(asked.filter((p) => p.endsWith('registry.json'))).toEqual([]);
    const base = addRegistry(world.ctx, { name: 'base', location: url, cwd: world.root });
    await expect(base).rejects.toMatchObject({
      code: 'E_REGISTRY_NETWORK',
      hint: expect.stringContaining(`${url}index.json`) as string,
    });
  });

  it('N11, N4: a 304 rewrites only the metadata of a cached document; a changed document is fetched again', async () => {
    const dir = join(world.root, 'reg');
    await writeSparseRegistry(dir, 10, GUARD);
    const { server, log } = await serve(dir);
    await addRegistry(world.ctx, {
      name: 'acme',
      location: `${server.url}registry.json`,
      cwd: world.root,
    });
    const cache = sparseCacheDir(indexCacheDir(world.ctx.paths), 'acme');
    const body = join(cache, 'registry.json');
    const bodyBefore = (await stat(body)).mtimeMs;
    const metaBefore = await readFile(`${body}.meta`, 'utf8');
    await new Promise((done) => setTimeout(done, 20));
    const always = { ...world.ctx, indexMaxAgeMs: 0 };
    await describePlugin(always, 'guard@acme');
    const root304 = log.find((r, i) => i > 0 && r.path === '/registry.json');
    expect(root304?.status).toBe(304);
    expect((await stat(body)).mtimeMs).toBe(bodyBefore);
    expect(await readFile(`${body}.meta`, 'utf8')).not.toBe(metaBefore);
  });

  it('N11, D5: offline, cached sparse documents are used, and an uncached plugin document is E_OFFLINE without a request', async () => {
    const dir = join(world.root, 'reg');
    await writeSparseRegistry(dir, 10, GUARD);
    const { server, log } = await serve(dir);
    await addRegistry(world.ctx, {
      name: 'acme',
      location: `${server.url}registry.json`,
      cwd: world.root,
    });
    await describePlugin(world.ctx, 'guard@acme');
    const count = log.length;
    const offline = { ...world.ctx, offline: true, indexMaxAgeMs: 0 };
    expect(await describePlugin(offline, 'guard@acme')).toMatchObject({ name: 'guard' });
    const { generatedPlugin } = await import('../helpers/sparse-registry.js');
    const other = generatedPlugin(3).name;
    await expect(describePlugin(offline, `${other}@acme`)).rejects.toMatchObject({
      code: 'E_OFFLINE',
    });
    expect(log.length).toBe(count);
  });

  it('N11, D5: offline search with an uncached search manifest skips that registry with an E_OFFLINE warning, without a request, and still searches the others', async () => {
    const cachedDir = join(world.root, 'cached');
    await writeSparseRegistry(cachedDir, 5, GUARD);
    const cached = await serve(cachedDir);
    await addRegistry(world.ctx, {
      name: 'near',
      location: `${cached.server.url}registry.json`,
      cwd: world.root,
    });
    await searchPlugins(world.ctx, { query: 'guard' });
    const dir = join(world.root, 'reg');
    await writeSparseRegistry(dir, 10, GUARD);
    const { server, log } = await serve(dir);
    await addRegistry(world.ctx, {
      name: 'acme',
      location: `${server.url}registry.json`,
      cwd: world.root,
    });
    const count = log.length;
    const offline = { ...world.ctx, offline: true };
    const found = await searchPlugins(offline, { query: 'guard' });
    expect(found.warnings).toEqual([
      expect.objectContaining({
        registry: 'acme',
        code: 'E_OFFLINE',
        message: expect.stringContaining('no cached search manifest') as string,
      }),
    ]);
    expect(found.results.map((r) => r.id)).toContain('guard@near');
    expect(found.results.every((r) => r.id.endsWith('@near'))).toBe(true);
    expect(log.length).toBe(count);
  });
});

describe('sparse layout: a registry added by its base URL that outgrew index.json (N1, N6)', () => {
  it('N1, N6: an index.json over the 8 MiB cap of a registry stored by its base URL says how to read its sparse layout instead', async () => {
    const dir = join(world.root, 'reg');
    await writeSparseRegistry(dir, 5, GUARD);
    const root = await readFile(join(dir, 'registry.json'));
    await rm(join(dir, 'registry.json'));
    await writeFile(join(dir, 'index.json'), '{"formatVersion":1,"plugins":{}}');
    const { server } = await serve(dir);
    await addRegistry(world.ctx, { name: 'acme', location: server.url, cwd: world.root });
    expect((await readState(world.ctx.paths)).registries['acme']?.location).toBe(server.url);
    // The registry grows past what index.json may hold, and its builder adds the sparse layout.
    await writeFile(join(dir, 'registry.json'), root);
    const padding = ' '.repeat(9 * 1024 * 1024);
    await writeFile(join(dir, 'index.json'), `{"formatVersion":1,"plugins":{}${padding}}`);
    const error = await failure(describePlugin({ ...world.ctx, indexMaxAgeMs: 0 }, 'guard@acme'));
    expect(error.code).toBe('E_REGISTRY_TOO_LARGE');
    expect(error.hint).toContain(`hookpm registry add acme ${server.url}registry.json`);
  });
});

describe('sparse layout: offline search of a partly cached registry (N11, D5)', () => {
  it('N11, D5: offline, a search page whose rows are not cached (a cache partly deleted, a search cut short) makes a warning that the results are partial, not a silent gap', async () => {
    const dir = join(world.root, 'reg');
    await writeSparseRegistry(dir, 40, GUARD);
    const { server } = await serve(dir);
    await addRegistry(world.ctx, {
      name: 'acme',
      location: `${server.url}registry.json`,
      cwd: world.root,
    });
    const online = await searchPlugins(world.ctx, { query: 'guard' });
    expect(online.results.map((r) => r.id)).toContain('guard@acme');
    expect(online.warnings).toEqual([]);
    const cache = sparseCacheDir(indexCacheDir(world.ctx.paths), 'acme');
    await rm(join(cache, 'search', 'gu.json.rows'));
    const offline = await searchPlugins({ ...world.ctx, offline: true }, { query: 'guard' });
    expect(offline.results.map((r) => r.id)).not.toContain('guard@acme');
    expect(offline.warnings).toEqual([
      expect.objectContaining({
        registry: 'acme',
        code: 'E_OFFLINE',
        message: expect.stringContaining('1 of') as string,
        hint: expect.stringContaining('online') as string,
      }),
    ]);
  });
});

describe('sparse layout: cost independent of registry size (N12)', () => {
  it('N12: registry add + one install move the same requests and at most 1.5x the bytes from 20,000 plugins as from 1,000', async () => {
    const costs: Array<{ requests: string[]; bytes: number }> = [];
    for (const count of [1_000, 20_000]) {
      const dir = join(world.root, `reg-${count}`);
      await writeSparseRegistry(dir, count, GUARD);
      const { server, log } = await serve(dir);
      const c: OperationContext = {
        ...world.ctx,
        paths: resolveStorePaths({ HOOKPM_HOME: join(world.root, `home-${count}`) }),
      };
      await addRegistry(c, {
        name: 'scale',
        location: `${server.url}registry.json`,
        cwd: world.root,
      });
      await installSpecs(c, world.root, ['guard@scale'], { enable: 'yes' });
      costs.push({
        requests: log.map((r) => `${r.method} ${r.path} ${r.status}`),
        bytes: log.reduce((n, r) => n + r.bytes, 0),
      });
    }
    const [small, large] = costs as [(typeof costs)[0], (typeof costs)[0]];
    expect(large.requests).toEqual(small.requests);
    expect(small.requests).toEqual([
      'GET /registry.json 200',
      'GET /plugins/gu/guard.json 200',
      'GET /tarballs/guard-1.3.0.tgz 200',
    ]);
    expect(large.bytes / small.bytes).toBeLessThanOrEqual(1.5);
  }, 120_000);
});
