import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addRegistry } from '../../src/ops/registries/add.js';
import { listRegistries, updateRegistries } from '../../src/ops/registries/list.js';
import { describePlugin } from '../../src/ops/plugins/info.js';
import type { OperationContext } from '../../src/ops/steps/context/operation-context.js';
import { removeRegistry } from '../../src/ops/registries/remove.js';
import { searchPlugins } from '../../src/ops/registries/search.js';
import { indexCacheFile } from '../../src/registry/indexes/cache-index.js';
import { INDEX_MAX_AGE_MS, loadIndex } from '../../src/registry/indexes/load-index.js';
import { indexCacheDir, stateFile } from '../../src/store/paths.js';
import type { StorePaths } from '../../src/store/store-paths.js';
import { readStateFast } from '../../src/store/state/read-state-fast.js';
import { readState, writeState } from '../../src/store/state/state.js';
import {
  SAMPLE_PLUGINS,
  indexRequests,
  makeIndex,
  startIndexServer,
} from '../helpers/index-documents.js';
import type { IndexServer } from '../helpers/index-documents.js';
import { makePlugin } from '../helpers/state-records.js';
import { failure } from '../helpers/failure.js';
import { GUARD_HIT, GUARD_INFO } from '../helpers/guard-info.js';

let root: string;
let paths: StorePaths;
let examples: string;
let ctx: OperationContext;
const servers: IndexServer[] = [];

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'hookpm-registries-'));
  const home = join(root, 'home');
  paths = { config: join(home, 'config'), data: join(home, 'data'), cache: join(home, 'cache') };
  examples = join(root, 'examples');
  await writeIndex(
    examples,
    makeIndex([
      { name: 'hello', description: 'Says hello', versions: { '1.0.0': ['SessionStart'] } },
    ]),
  );
  ctx = {
    paths,
    offline: false,
    defaults: {
      examples: { location: examples, kind: 'index', addedAt: '1970-01-01T00:00:00.000Z' },
    },
    fetch: { retries: 0, deadlineMs: 5_000 },
  };
});

afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
  await rm(root, { recursive: true, force: true });
});

async function writeIndex(dir: string, index: unknown): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'index.json'), JSON.stringify(index));
}

async function server(
  index: unknown = makeIndex(SAMPLE_PLUGINS),
  etag = '"v1"',
): Promise<IndexServer> {
  const s = await startIndexServer();
  servers.push(s);
  s.serve(JSON.stringify(index), etag);
  return s;
}

async function bytesOf(file: string): Promise<Buffer | null> {
  return readFile(file).catch(() => null);
}

/** State with one added registry, so that byte-identity checks compare a real file. */
async function seedState(): Promise<Buffer> {
  const other = join(root, 'other');
  await writeIndex(other, makeIndex([{ name: 'other-plugin' }]));
  await addRegistry(ctx, { name: 'other', location: other, cwd: root });
  return (await bytesOf(stateFile(paths))) as Buffer;
}

describe('registry add (registry.md section 1)', () => {
  it('1, N6: a loopback http index is fetched and validated (after a 404 for the sparse root), then recorded with its normalised base URL', async () => {
    const s = await server();
    const added = await addRegistry(ctx, {
      name: 'acme',
      location: s.url.replace(/\/$/, ''),
      cwd: root,
    });
    expect(added).toEqual({
      name: 'acme',
      kind: 'index',
      location: s.url,
      plugins: 3,
      warnings: [],
    });
    const state = await readState(paths);
    expect(state.registries['acme']).toMatchObject({ location: s.url, kind: 'index' });
    expect(s.requests.map((r) => r.path)).toEqual(['/registry.json', '/index.json']);
    expect(await bytesOf(indexCacheFile(indexCacheDir(paths), 'acme'))).not.toBeNull();
  });

  it('1: a directory path is stored absolute, a file:// URL as a file: base URL', async () => {
    const dir = join(root, 'reg');
    await writeIndex(dir, makeIndex(SAMPLE_PLUGINS));
    await addRegistry(ctx, { name: 'by-path', location: 'reg', cwd: root });
    await addRegistry(ctx, { name: 'by-url', location: pathToFileURL(dir).href, cwd: '/' });
    const state = await readState(paths);
    expect(state.registries['by-path']?.location).toBe(dir);
    expect(state.registries['by-url']?.location).toBe(`${pathToFileURL(dir).href}/`);
    const found = await searchPlugins(ctx, { query: 'guard' });
    expect(found.results.map((r) => r.id)).toEqual(['guard@by-path', 'guard@by-url']);
  });

  it('N5: credentials in a registry URL are never printed: the result and errors show them redacted', async () => {
    const s = await server();
    const withCredentials = s.url.replace('http://', 'http://user:s3cret@');
    const added = await addRegistry(ctx, { name: 'private', location: withCredentials, cwd: root });
    expect(added.location).toBe(s.url.replace('http://', 'http://***@'));
    const listed = await listRegistries(ctx);
    expect(JSON.stringify(listed)).not.toContain('s3cret');
    const error = await failure(
      addRegistry(ctx, { name: 'private', location: withCredentials, cwd: root }),
    );
    expect(error.message).not.toContain('s3cret');
    s.serve('<html>', '"x"');
    const failed = await failure(updateRegistries(ctx, 'private'));
    expect(failed.message).not.toContain('s3cret');
  });

  it('1: plain http off loopback is E_INSECURE_URL, and the state stays byte-identical', async () => {
    const before = await seedState();
    const error = await failure(
      addRegistry(ctx, { name: 'evil', location: 'http://example.com/reg/', cwd: root }),
    );
    expect(error.code).toBe('E_INSECURE_URL');
    expect(await bytesOf(stateFile(paths))).toEqual(before);
  });

  it('1: an unreadable location is E_USAGE; a directory without index.json is E_NOT_FOUND; state unchanged', async () => {
    const before = await seedState();
    expect(
      (await failure(addRegistry(ctx, { name: 'x', location: 'ftp://host/reg', cwd: root }))).code,
    ).toBe('E_USAGE');
    await mkdir(join(root, 'empty'));
    expect(
      (await failure(addRegistry(ctx, { name: 'x', location: 'empty', cwd: root }))).code,
    ).toBe('E_NOT_FOUND');
    expect(await bytesOf(stateFile(paths))).toEqual(before);
  });

  // cli.md Conventions: what was given (N5: redacted), in one sentence, and every form in the hint.
  it.each([
    ['foo', 'foo'],
    ['http//x', 'http//x'],
    [':::', ':::'],
    ['https//bob:s3cret@host/reg', 'https//***@host/reg'],
  ])(
    '1: %j, neither a URL nor a directory, is E_NOT_FOUND naming it as given',
    async (location, shown) => {
      const before = await seedState();
      const error = await failure(addRegistry(ctx, { name: 'x', location, cwd: root }));
      expect(error.code).toBe('E_NOT_FOUND');
      expect(error.message).toBe(
        `the registry location ${JSON.stringify(shown)} is not a URL, and no file or directory of that path exists`,
      );
      expect(error.hint).toContain('https:// URL');
      expect(error.hint).toContain('index.json');
      expect(JSON.stringify(error.details)).not.toContain('s3cret');
      expect(await bytesOf(stateFile(paths))).toEqual(before);
    },
  );

  it('1: registry names follow ^[a-z0-9][a-z0-9._-]{0,63}$ and `local` is reserved (E_NAME_INVALID)', async () => {
    const before = await seedState();
    for (const name of ['Acme', '-acme', 'a'.repeat(65), 'ac me', 'local', '']) {
      const error = await failure(addRegistry(ctx, { name, location: examples, cwd: root }));
      expect(error.code).toBe('E_NAME_INVALID');
    }
    expect(await bytesOf(stateFile(paths))).toEqual(before);
    await expect(
      addRegistry(ctx, { name: 'a'.repeat(64), location: examples, cwd: root }),
    ).resolves.toBeDefined();
  });

  it('1: a taken name is E_REGISTRY_EXISTS (the built-in examples included) and the state is unchanged', async () => {
    const before = await seedState();
    const s = await server();
    expect(
      (await failure(addRegistry(ctx, { name: 'other', location: s.url, cwd: root }))).code,
    ).toBe('E_REGISTRY_EXISTS');
    expect(
      (await failure(addRegistry(ctx, { name: 'examples', location: s.url, cwd: root }))).code,
    ).toBe('E_REGISTRY_EXISTS');
    expect(s.requests).toHaveLength(0);
    expect(await bytesOf(stateFile(paths))).toEqual(before);
  });

  it('I1: an index that breaks the schema is not added: E_REGISTRY_SCHEMA naming the field path', async () => {
    const before = await seedState();
    const bad = makeIndex(SAMPLE_PLUGINS) as { plugins: Record<string, { versions: unknown }> };
    (bad.plugins['guard'] as { versions: unknown }).versions = [];
    const s = await server(bad);
    const error = await failure(addRegistry(ctx, { name: 'bad', location: s.url, cwd: root }));
    expect(error.code).toBe('E_REGISTRY_SCHEMA');
    expect(error.details['field']).toBe('plugins.guard.versions');
    expect(await bytesOf(stateFile(paths))).toEqual(before);
    expect(await bytesOf(indexCacheFile(indexCacheDir(paths), 'bad'))).toBeNull();
  });

  it('1: a directory holding .claude-plugin/marketplace.json is added as kind marketplace with its plugins; a marketplace.json that is not a catalog is E_REGISTRY_SCHEMA and the state is unchanged', async () => {
    const mp = join(root, 'mp');
    await mkdir(join(mp, '.claude-plugin'), { recursive: true });
    await mkdir(join(mp, 'plugins', 'hello', 'hooks'), { recursive: true });
    await writeFile(
      join(mp, 'plugins', 'hello', 'hooks', 'hooks.json'),
      JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: 'true' }] }] } }),
    );
    const catalog = {
      name: 'MP',
      owner: { name: 'me' },
      plugins: [{ name: 'hello', source: './plugins/hello', description: 'Hi' }],
    };
    await writeFile(join(mp, '.claude-plugin', 'marketplace.json'), JSON.stringify(catalog));
    const added = await addRegistry(ctx, { name: 'mp', location: 'mp', cwd: root });
    expect(added).toEqual({
      name: 'mp',
      kind: 'marketplace',
      location: mp,
      plugins: 1,
      warnings: [],
    });
    const found = await searchPlugins(ctx, { event: 'Stop' });
    expect(found.results.map((r) => [r.id, r.events])).toEqual([['hello@mp', ['Stop']]]);
    const before = await bytesOf(stateFile(paths));
    const bad = join(root, 'bad');
    await mkdir(join(bad, '.claude-plugin'), { recursive: true });
    await writeFile(join(bad, '.claude-plugin', 'marketplace.json'), '{}');
    const error = await failure(addRegistry(ctx, { name: 'bad', location: bad, cwd: root }));
    expect(error.code).toBe('E_REGISTRY_SCHEMA');
    expect(error.message).toMatch(/not a marketplace catalog/);
    expect(await bytesOf(stateFile(paths))).toEqual(before);
  });

  it('1: `registry add <name> npm` records kind npm at the URL of HOOKPM_NPM_REGISTRY, and search skips it with a note', async () => {
    const saved = process.env.HOOKPM_NPM_REGISTRY;
    process.env.HOOKPM_NPM_REGISTRY = 'http://127.0.0.1:9/npm';
    try {
      const added = await addRegistry(ctx, { name: 'npmjs', location: 'npm', cwd: root });
      expect(added).toEqual({
        name: 'npmjs',
        kind: 'npm',
        location: 'http://127.0.0.1:9/npm/',
        plugins: 0,
        warnings: [],
      });
    } finally {
      if (saved === undefined) delete process.env.HOOKPM_NPM_REGISTRY;
      else process.env.HOOKPM_NPM_REGISTRY = saved;
    }
    expect((await readState(paths)).registries['npmjs']).toMatchObject({ kind: 'npm' });
    const found = await searchPlugins(ctx, { query: 'hello' });
    expect(found.results.map((r) => r.id)).toEqual(['hello@examples']);
    expect(found.notes).toEqual([expect.stringMatching(/^registry npmjs \(npm\) is not searched/)]);
    expect(found.warnings).toEqual([]);
  });

  it('1: `registry add <name> npm` reads HOOKPM_NPM_REGISTRY from the environment the context carries', async () => {
    const env = { ...process.env, HOOKPM_NPM_REGISTRY: 'http://127.0.0.1:9/from-context' };
    const added = await addRegistry(
      { ...ctx, env },
      { name: 'npmctx', location: 'npm', cwd: root },
    );
    expect(added.location).toBe('http://127.0.0.1:9/from-context/');
    expect(process.env.HOOKPM_NPM_REGISTRY).not.toBe(env.HOOKPM_NPM_REGISTRY);
  });
});

describe('the index cache (N4, I2)', () => {
  it('N4: a fresh cached index is used without a request; a stale one is revalidated with If-None-Match and a 304 keeps it', async () => {
    const s = await server();
    await addRegistry(ctx, { name: 'acme', location: s.url, cwd: root });
    const cache = indexCacheFile(indexCacheDir(paths), 'acme');
    await searchPlugins(ctx, { query: 'guard' });
    expect(indexRequests(s)).toHaveLength(1);
    const later = { ...ctx, now: () => new Date(Date.now() + INDEX_MAX_AGE_MS + 1000) };
    const found = await searchPlugins(later, { query: 'guard' });
    expect(found.results.map((r) => r.id)).toEqual(['guard@acme']);
    expect(indexRequests(s)).toHaveLength(2);
    expect(indexRequests(s)[1]?.ifNoneMatch).toBe('"v1"');
    const loaded = await loadIndex(
      { name: 'acme', location: s.url },
      { cacheDir: indexCacheDir(paths), cacheOnly: false, refresh: true },
    );
    expect(loaded.origin).toBe('not-modified');
    expect(Object.keys(loaded.index.plugins).sort()).toEqual([
      'audit-log',
      'guard',
      'notify-on-stop',
    ]);
    expect((await bytesOf(cache))?.length).toBeGreaterThan(0);
  });

  it('N4: with indexMaxAgeMs 0 every use revalidates with If-None-Match', async () => {
    const s = await server();
    await addRegistry(ctx, { name: 'acme', location: s.url, cwd: root });
    const always = { ...ctx, indexMaxAgeMs: 0 };
    await searchPlugins(always, { query: 'guard' });
    await describePlugin(always, 'guard');
    expect(indexRequests(s).map((r) => r.ifNoneMatch)).toEqual([undefined, '"v1"', '"v1"']);
  });

  it('N4: registry update fetches a changed index (new ETag) and search sees it', async () => {
    const s = await server();
    await addRegistry(ctx, { name: 'acme', location: s.url, cwd: root });
    s.serve(
      JSON.stringify(makeIndex([...SAMPLE_PLUGINS, { name: 'newcomer', description: 'Fresh' }])),
      '"v2"',
    );
    const [status] = await updateRegistries(ctx, 'acme');
    expect(status).toMatchObject({ name: 'acme', plugins: 4, origin: 'network', error: null });
    expect(indexRequests(s)[1]?.ifNoneMatch).toBe('"v1"');
    expect((await searchPlugins(ctx, { query: 'newcomer' })).results.map((r) => r.id)).toEqual([
      'newcomer@acme',
    ]);
  });

  it('I2: a server that starts serving HTML keeps the cached index: E_REGISTRY_SCHEMA, cache bytes identical', async () => {
    const s = await server();
    await addRegistry(ctx, { name: 'acme', location: s.url, cwd: root });
    const cache = indexCacheFile(indexCacheDir(paths), 'acme');
    const before = await bytesOf(cache);
    s.serve((_req, res) => {
      res.setHeader('content-type', 'text/html');
      res.end('<!doctype html><html><body>maintenance</body></html>');
    });
    const error = await failure(updateRegistries(ctx, 'acme'));
    expect(error.code).toBe('E_REGISTRY_SCHEMA');
    expect(await bytesOf(cache)).toEqual(before);
    const all = await updateRegistries(ctx);
    expect(all.find((r) => r.name === 'acme')?.error?.code).toBe('E_REGISTRY_SCHEMA');
    expect(await bytesOf(cache)).toEqual(before);
    const found = await searchPlugins(ctx, { query: 'guard' });
    expect(found.results.map((r) => r.id)).toEqual(['guard@acme']);
  });

  it('I2: truncated JSON and an over-8-MiB index (E_REGISTRY_TOO_LARGE) leave the cache byte-identical', async () => {
    const s = await server();
    await addRegistry(ctx, { name: 'acme', location: s.url, cwd: root });
    const cache = indexCacheFile(indexCacheDir(paths), 'acme');
    const before = await bytesOf(cache);
    s.serve(JSON.stringify(makeIndex(SAMPLE_PLUGINS)).slice(0, 100), '"v3"');
    expect((await failure(updateRegistries(ctx, 'acme'))).code).toBe('E_REGISTRY_SCHEMA');
    s.serve(`{"formatVersion":1,"plugins":{},"pad":"${'x'.repeat(9 * 1024 * 1024)}"}`, '"v4"');
    expect((await failure(updateRegistries(ctx, 'acme'))).code).toBe('E_REGISTRY_TOO_LARGE');
    expect(await bytesOf(cache)).toEqual(before);
  });

  it('N3: an unreachable registry is searched in its stale cached copy, with a warning; `registry update` fails', async () => {
    const s = await server();
    await addRegistry(ctx, { name: 'acme', location: s.url, cwd: root });
    await s.close();
    servers.splice(0);
    const later = { ...ctx, now: () => new Date(Date.now() + 2 * INDEX_MAX_AGE_MS) };
    const found = await searchPlugins(later, { query: 'guard' });
    expect(found.results.map((r) => r.id)).toEqual(['guard@acme']);
    expect(found.warnings).toEqual([
      expect.objectContaining({ registry: 'acme', code: 'E_REGISTRY_NETWORK' }),
    ]);
    expect(found.warnings[0]?.message).toMatch(/Using the cached index from /);
    const listed = await listRegistries(later);
    expect(listed.find((r) => r.name === 'acme')?.stale?.code).toBe('E_REGISTRY_NETWORK');
    expect((await failure(updateRegistries(later, 'acme'))).code).toBe('E_REGISTRY_NETWORK');
  });

  it('D1: a damaged cache file counts as absent and is fetched again', async () => {
    const s = await server();
    await addRegistry(ctx, { name: 'acme', location: s.url, cwd: root });
    await writeFile(indexCacheFile(indexCacheDir(paths), 'acme'), '{"cacheVersion":1,"url":');
    const found = await searchPlugins(ctx, { query: 'guard' });
    expect(found.results).toHaveLength(1);
    expect(indexRequests(s)).toHaveLength(2);
    expect(indexRequests(s)[1]?.ifNoneMatch).toBeUndefined();
  });

  it('file: registries are served from the cache while index.json is unchanged and re-read when it changes', async () => {
    const dir = join(root, 'reg');
    await writeIndex(dir, makeIndex(SAMPLE_PLUGINS));
    await addRegistry(ctx, { name: 'mine', location: dir, cwd: root });
    const loaded = await loadIndex(
      { name: 'mine', location: dir },
      { cacheDir: indexCacheDir(paths), cacheOnly: false, refresh: false },
    );
    expect(loaded.origin).toBe('cache');
    await writeIndex(dir, makeIndex([...SAMPLE_PLUGINS, { name: 'added-later' }]));
    expect((await searchPlugins(ctx, { query: 'added-later' })).results.map((r) => r.id)).toEqual([
      'added-later@mine',
    ]);
  });
});

describe('--offline (D5)', () => {
  it('D5: a network registry is read from its cached index, whatever its age, and the result says so', async () => {
    const s = await server();
    await addRegistry(ctx, { name: 'acme', location: s.url, cwd: root });
    await s.close();
    servers.splice(0);
    const offline = {
      ...ctx,
      offline: true,
      now: () => new Date(Date.now() + 10 * INDEX_MAX_AGE_MS),
    };
    const found = await searchPlugins(offline, { query: 'guard' });
    expect(found.results.map((r) => r.id)).toEqual(['guard@acme']);
    expect(found.cacheOnly).toEqual(['acme']);
    const listed = await listRegistries(offline);
    expect(listed.find((r) => r.name === 'acme')).toMatchObject({
      plugins: 3,
      cacheOnly: true,
      error: null,
    });
  });

  it('D5: without a cached index a network registry is E_OFFLINE, and adding one offline is refused', async () => {
    const s = await server();
    await addRegistry(ctx, { name: 'acme', location: s.url, cwd: root });
    await rm(indexCacheFile(indexCacheDir(paths), 'acme'));
    const before = await bytesOf(stateFile(paths));
    const offline = { ...ctx, offline: true };
    expect((await failure(describePlugin(offline, 'guard@acme'))).code).toBe('E_OFFLINE');
    const found = await searchPlugins(offline, { query: '' });
    expect(found.warnings.map((w) => [w.registry, w.code])).toEqual([['acme', 'E_OFFLINE']]);
    expect(found.results.map((r) => r.id)).toEqual(['hello@examples']);
    expect(
      (await failure(addRegistry(offline, { name: 'more', location: s.url, cwd: root }))).code,
    ).toBe('E_OFFLINE');
    expect(indexRequests(s)).toHaveLength(1);
    expect(await bytesOf(stateFile(paths))).toEqual(before);
  });
});

describe('the built-in examples registry', () => {
  it('1: exists by default; `registry remove examples` removes it and it stays removed', async () => {
    expect((await listRegistries(ctx)).map((r) => [r.name, r.builtin, r.plugins])).toEqual([
      ['examples', true, 1],
    ]);
    const removed = await removeRegistry(ctx, 'examples');
    expect(removed).toEqual({ name: 'examples', installed: [] });
    expect(await listRegistries(ctx)).toEqual([]);
    expect((await readState(paths)).removedDefaults).toEqual(['examples']);
    expect((await readStateFast(paths)).removedDefaults).toEqual(['examples']);
    expect((await searchPlugins(ctx, {})).results).toEqual([]);
    expect((await failure(removeRegistry(ctx, 'examples'))).code).toBe('E_NOT_FOUND');
    await addRegistry(ctx, { name: 'examples', location: examples, cwd: root });
    expect((await listRegistries(ctx)).map((r) => [r.name, r.builtin])).toEqual([
      ['examples', false],
    ]);
    await removeRegistry(ctx, 'examples');
    expect(await listRegistries(ctx)).toEqual([]);
  });

  it('1: a missing examples index is a clear E_NOT_FOUND, and search still answers from the other registries', async () => {
    await rm(join(examples, 'index.json'));
    const s = await server();
    await addRegistry(ctx, { name: 'acme', location: s.url, cwd: root });
    const found = await searchPlugins(ctx, { query: 'guard' });
    expect(found.results.map((r) => r.id)).toEqual(['guard@acme']);
    expect(found.warnings).toHaveLength(1);
    expect(found.warnings[0]).toMatchObject({ registry: 'examples', code: 'E_NOT_FOUND' });
    expect(found.warnings[0]?.message).toContain(join(examples, 'index.json'));
    expect(found.warnings[0]?.hint).toMatch(/registry remove examples/);
  });

  it('remove: an unknown name is E_NOT_FOUND and the state is byte-identical; installed plugins are named', async () => {
    const before = await seedState();
    expect((await failure(removeRegistry(ctx, 'nope'))).code).toBe('E_NOT_FOUND');
    expect(await bytesOf(stateFile(paths))).toEqual(before);
    const state = await readState(paths);
    state.plugins['other-plugin@other'] = makePlugin('other-plugin@other');
    await writeState(paths, state);
    expect(await removeRegistry(ctx, 'other')).toEqual({
      name: 'other',
      installed: ['other-plugin@other'],
    });
    expect((await readState(paths)).plugins['other-plugin@other']).toBeDefined();
    expect(await bytesOf(indexCacheFile(indexCacheDir(paths), 'other'))).toBeNull();
  });
});

describe('info of a scoped npm package typed as npm takes it', () => {
  it('cli.md `hookpm info`: `@acme/guard@npm` is E_NAME_INVALID naming `info npm:@acme/guard`', async () => {
    const error = await failure(describePlugin(ctx, '@acme/guard@npm'));
    expect(error.code).toBe('E_NAME_INVALID');
    expect(error.message).toContain('"@acme/guard" is a scoped npm package');
    expect(error.hint).toContain('`hookpm info npm:@acme/guard`');
  });
});

describe('search and info (cli.md sections 2, 3)', () => {
  beforeEach(async () => {
    await writeIndex(join(root, 'acme'), makeIndex(SAMPLE_PLUGINS, 'acme'));
    await addRegistry(ctx, { name: 'acme', location: join(root, 'acme'), cwd: root });
  });

  it('search matches name, description and keyword, case-insensitively, exact name first', async () => {
    const ids = async (query: string): Promise<string[]> =>
      (await searchPlugins(ctx, { query })).results.map((r) => r.id);
    expect(await ids('guard')).toEqual(['guard@acme']);
    expect(await ids('DESTRUCTIVE shell')).toEqual(['guard@acme']);
    expect(await ids('audit')).toEqual(['audit-log@acme']);
    expect(await ids('notify')).toEqual(['notify-on-stop@acme']);
    expect(await ids('no-such-word')).toEqual([]);
    expect(await ids('')).toEqual([
      'audit-log@acme',
      'guard@acme',
      'hello@examples',
      'notify-on-stop@acme',
    ]);
    await writeIndex(
      join(root, 'more'),
      makeIndex([{ name: 'guard-rails', description: 'guard' }, { name: 'x-guard' }]),
    );
    await addRegistry(ctx, { name: 'more', location: join(root, 'more'), cwd: root });
    expect(await ids('guard')).toEqual(['guard@acme', 'guard-rails@more', 'x-guard@more']);
  });

  it('search --event keeps plugins whose latest version declares the event; an unknown event is E_USAGE', async () => {
    const found = await searchPlugins(ctx, { event: 'SessionStart' });
    expect(found.results.map((r) => [r.id, r.version, r.events])).toEqual([
      ['guard@acme', '1.2.0', ['PreToolUse', 'SessionStart']],
      ['hello@examples', '1.0.0', ['SessionStart']],
    ]);
    expect((await searchPlugins(ctx, { query: 'shell', event: 'Stop' })).results).toEqual([]);
    expect((await failure(searchPlugins(ctx, { event: 'preToolUse' }))).code).toBe('E_USAGE');
  });

  it('search results have the cli.md shape', async () => {
    const [hit] = (await searchPlugins(ctx, { query: 'guard' })).results;
    expect(hit).toMatchObject(GUARD_HIT);
  });

  it('info has the cli.md shape: registry, versions, dist-tags, latest entry, installed null', async () => {
    const info = await describePlugin(ctx, 'guard');
    expect(info).toMatchObject({
      ...GUARD_INFO,
      registryInfo: { name: 'acme', kind: 'index', location: join(root, 'acme') },
    });
    expect(info.latest?.integrity).toMatch(/^sha512-/);
    expect(info.latest?.surfaceHash).toMatch(/^sha256-/);
    expect(info.latest?.tarball).toBe(
      pathToFileURL(join(root, 'acme', 'tarballs', 'guard-1.2.0.tgz')).href,
    );
  });

  it('V1: info of a name in two registries is E_AMBIGUOUS listing the ids; name@registry picks one', async () => {
    await writeIndex(
      join(root, 'more'),
      makeIndex([{ name: 'guard', description: 'Another guard' }]),
    );
    await addRegistry(ctx, { name: 'more', location: join(root, 'more'), cwd: root });
    const error = await failure(describePlugin(ctx, 'guard'));
    expect(error.code).toBe('E_AMBIGUOUS');
    expect(error.details['ids']).toEqual(['guard@acme', 'guard@more']);
    expect((await describePlugin(ctx, 'guard@more')).description).toBe('Another guard');
    expect((await failure(describePlugin(ctx, 'nothing'))).code).toBe('E_NOT_FOUND');
    expect((await failure(describePlugin(ctx, 'guard@nowhere'))).code).toBe('E_NOT_FOUND');
  });

  it('info shows the installed record, and a plugin known only from the state (local)', async () => {
    const state = await readState(paths);
    state.plugins['guard@acme'] = makePlugin('guard@acme', { version: '1.1.0' });
    state.plugins['mine@local'] = makePlugin('mine@local', { version: '0.1.0' });
    await writeState(paths, state);
    const info = await describePlugin(ctx, 'guard@acme');
    expect(info.installed).toMatchObject({ version: '1.1.0', enabled: true, consented: true });
    const local = await describePlugin(ctx, 'mine');
    expect(local).toMatchObject({
      id: 'mine@local',
      registry: 'local',
      registryInfo: null,
      versions: ['0.1.0'],
    });
    expect(local.installed?.version).toBe('0.1.0');
  });
});
