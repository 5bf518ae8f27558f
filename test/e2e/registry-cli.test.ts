/**
 * End to end with the built binary: `hookpm registry add|remove|list|update`, `search` and `info`
 * against a node:http index server on 127.0.0.1 and directory registries, in a temporary HOME and
 * HOOKPM_HOME.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ensureBuilt, runBin, type BinRun } from '../helpers/built-bin.js';
import {
  SAMPLE_PLUGINS,
  indexRequests,
  makeIndex,
  startIndexServer,
  type IndexServer,
} from '../helpers/index-documents.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';
import { GUARD_HIT, GUARD_INFO } from '../helpers/guard-info.js';

let home: TempHome;
let server: IndexServer;
let n = 0;
let env: Record<string, string>;

beforeAll(() => ensureBuilt(), 120_000);

beforeEach(async () => {
  home = await makeTempHome('hookpm-registry-cli-');
  n += 1;
  env = { ...home.env, HOOKPM_HOME: join(home.dir, `hookpm${n}`), NO_COLOR: '' };
  server = await startIndexServer();
  server.serve(JSON.stringify(makeIndex(SAMPLE_PLUGINS, 'acme')), '"e1"');
});

afterEach(async () => {
  await server.close();
  await home.cleanup();
});

afterAll(() => undefined);

function hookpm(...args: string[]): Promise<BinRun> {
  return runBin(args, { env, cwd: home.dir });
}

async function ok(...args: string[]): Promise<BinRun> {
  const run = await hookpm(...args);
  expect(run.code, run.stderr).toBe(0);
  return run;
}

function json<T = Record<string, unknown>>(run: BinRun): T {
  return JSON.parse(run.stdout) as T;
}

async function stateBytes(): Promise<Buffer | null> {
  return readFile(join(env.HOOKPM_HOME as string, 'data', 'state.json')).catch(() => null);
}

describe('hookpm registry', () => {
  it('1: `registry add` fetches the index and records the registry; `registry list --json` has the cli.md shape', async () => {
    const added = json<{ added: unknown }>(
      await ok('registry', 'add', 'acme', server.url, '--json'),
    );
    expect(added.added).toEqual({
      name: 'acme',
      kind: 'index',
      location: server.url,
      plugins: 3,
      warnings: [],
    });
    const listed = json<{ registries: Array<Record<string, unknown>> }>(
      await ok('registry', 'list', '--json'),
    );
    const acme = listed.registries.find((r) => r.name === 'acme');
    expect(acme).toMatchObject({ name: 'acme', location: server.url, kind: 'index', plugins: 3 });
    expect(listed.registries.map((r) => r.name)).toContain('examples');
    const human = await ok('registry', 'list');
    expect(human.stdout).toMatch(/^NAME\s+KIND\s+PLUGINS\s+STATUS\s+LOCATION$/m);
    expect(human.stdout).toMatch(/^acme\s+index\s+3\s/m);
  });

  it.each(['git:x', 'ssh:host/repo', 'git+ssh:host/repo'])(
    'cli.md: `registry add` of %j, a git-like location with no "//", is E_USAGE naming it, not E_INTERNAL',
    async (location) => {
      const run = await hookpm('registry', 'add', 'x', location);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('error[E_USAGE]');
      expect(run.stderr).toContain(`cannot read a marketplace from ${location}`);
      expect(await stateBytes()).toBeNull();
    },
  );

  it('N4: `registry update` revalidates with If-None-Match; a 304 leaves the index unchanged', async () => {
    await ok('registry', 'add', 'acme', server.url);
    const updated = json<{ registries: Array<Record<string, unknown>> }>(
      await ok('registry', 'update', 'acme', '--json'),
    );
    expect(updated.registries).toEqual([
      expect.objectContaining({ name: 'acme', origin: 'not-modified', plugins: 3 }),
    ]);
    expect(indexRequests(server).map((r) => r.ifNoneMatch)).toEqual([undefined, '"e1"']);
  });

  it('security.md: a plain http registry off loopback is E_INSECURE_URL (exit 1), the state byte-identical', async () => {
    await ok('registry', 'add', 'acme', server.url);
    const before = await stateBytes();
    const run = await hookpm('registry', 'add', 'evil', 'http://example.com/registry/', '--json');
    expect(run.code).toBe(1);
    expect(json<{ error: { code: string } }>(run).error.code).toBe('E_INSECURE_URL');
    const again = await hookpm('registry', 'add', 'acme', server.url);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^hookpm: error\[E_REGISTRY_EXISTS\]/);
    expect(await stateBytes()).toEqual(before);
  });

  it('I2: an index server that starts serving HTML: `registry update` fails E_REGISTRY_SCHEMA and search keeps the cached index', async () => {
    await ok('registry', 'add', 'acme', server.url);
    const cache = join(env.HOOKPM_HOME as string, 'cache', 'indexes', 'acme.json');
    const before = await readFile(cache);
    server.serve((_req, res) => res.end('<html>oops</html>'));
    const run = await hookpm('registry', 'update', 'acme', '--json');
    expect(run.code).toBe(1);
    expect(json<{ error: { code: string } }>(run).error.code).toBe('E_REGISTRY_SCHEMA');
    expect(await readFile(cache)).toEqual(before);
    const found = json<{ results: Array<{ id: string }> }>(await ok('search', 'guard', '--json'));
    expect(found.results.map((r) => r.id)).toContain('guard@acme');
  });

  it('1: `registry remove examples` works and stays removed', async () => {
    const removed = json<{ removed: { name: string } }>(
      await ok('registry', 'remove', 'examples', '--json'),
    );
    expect(removed.removed.name).toBe('examples');
    const listed = json<{ registries: unknown[] }>(await ok('registry', 'list', '--json'));
    expect(listed.registries).toEqual([]);
    await ok('registry', 'add', 'acme', server.url);
    const names = json<{ registries: Array<{ name: string }> }>(
      await ok('registry', 'list', '--json'),
    );
    expect(names.registries.map((r) => r.name)).toEqual(['acme']);
    const again = await hookpm('registry', 'remove', 'examples');
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/E_NOT_FOUND/);
  });

  it('1: a directory registry and a file:// registry work like a URL one', async () => {
    const dir = join(home.dir, 'reg');
    await mkdir(dir);
    await writeFile(
      join(dir, 'index.json'),
      JSON.stringify(makeIndex([{ name: 'local-one', description: 'From disk' }])),
    );
    await ok('registry', 'add', 'disk', './reg');
    await ok('registry', 'add', 'url', `file://${dir}`);
    const found = json<{ results: Array<{ id: string }> }>(await ok('search', 'disk', '--json'));
    expect(found.results.map((r) => r.id)).toEqual(['local-one@disk', 'local-one@url']);
  });
});

describe('hookpm search and info', () => {
  beforeEach(async () => {
    await ok('registry', 'remove', 'examples');
    await ok('registry', 'add', 'acme', server.url);
  });

  it("search --json has the cli.md shape; --event filters by the latest version's events", async () => {
    const found = json<{ results: unknown[] }>(await ok('search', 'shell', '--json'));
    expect(found.results).toEqual([expect.objectContaining(GUARD_HIT)]);
    const stop = json<{ results: Array<{ id: string }> }>(
      await ok('search', '--event', 'Stop', '--json'),
    );
    expect(stop.results.map((r) => r.id)).toEqual(['notify-on-stop@acme']);
    const bad = await hookpm('search', '--event', 'stop');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/E_USAGE/);
  });

  it('the fast search path and the full CLI print the same documents', async () => {
    const fast = await ok('search', 'guard', '--json');
    const full = await ok('--json', 'search', 'guard');
    expect(fast.stdout).toBe(full.stdout);
    const fastHuman = await ok('search', 'a');
    const fullHuman = await ok('search', 'a', '--cwd', home.dir);
    expect(fastHuman.stdout).toBe(fullHuman.stdout);
  });

  it('cli.md section 1: plugin-supplied text is escaped and there is no colour off a TTY', async () => {
    server.serve(
      JSON.stringify(
        makeIndex([{ name: 'sneaky', description: 'red \u001b[31mALERT\u001b[0m\rover' }]),
      ),
      '"e2"',
    );
    await ok('registry', 'update');
    const run = await ok('search', 'sneaky');
    expect(run.stdout).toMatch(/^ID\s+VERSION\s+EVENTS\s+DESCRIPTION$/m);
    expect(run.stdout).not.toContain('\u001b');
    expect(run.stdout).toContain('\\u001b[31mALERT');
    const info = await ok('info', 'sneaky');
    expect(info.stdout).not.toContain('\u001b');
    expect(info.stdout).not.toContain('\r');
  });

  it('info --json has the cli.md shape; a name in no registry is E_NOT_FOUND', async () => {
    const info = json(await ok('info', 'guard', '--json'));
    expect(info).toMatchObject({
      ...GUARD_INFO,
    });
    const latest = info.latest as Record<string, unknown>;
    expect(latest.integrity).toMatch(/^sha512-/);
    expect(latest.surfaceHash).toMatch(/^sha256-/);
    const human = await ok('info', 'guard@acme');
    expect(human.stdout).toMatch(/^guard@acme 1\.2\.0$/m);
    expect(human.stdout).toMatch(/^versions\s+1\.2\.0, 1\.1\.0$/m);
    const missing = await hookpm('info', 'nothing', '--json');
    expect(missing.code).toBe(1);
    expect(json<{ error: { code: string } }>(missing).error.code).toBe('E_NOT_FOUND');
  });

  it('D5: --offline searches the cached index and says so; with no cache it is E_OFFLINE', async () => {
    await server.close();
    const run = await ok('search', 'guard', '--offline', '--json');
    expect(json<{ results: Array<{ id: string }> }>(run).results.map((r) => r.id)).toEqual([
      'guard@acme',
    ]);
    expect(run.stderr).toMatch(/--offline: using the cached indexes of acme/);
    // docs/reference/cli-json.md: the documents name the registries read from the cache only
    // `offline`, after the flag, in search and info, and per registry in `registry list`.
    expect(json<Record<string, unknown>>(run)).toMatchObject({ offline: ['acme'] });
    expect(json<Record<string, unknown>>(run)).not.toHaveProperty('cacheOnly');
    const info = await ok('info', 'guard@acme', '--offline', '--json');
    expect(json<Record<string, unknown>>(info)).toMatchObject({ offline: ['acme'] });
    const listed = json<{ registries: Array<Record<string, unknown>> }>(
      await ok('registry', 'list', '--offline', '--json'),
    ).registries.find((r) => r.name === 'acme');
    expect(listed).toMatchObject({ offline: true, error: null });
    expect(listed).not.toHaveProperty('cacheOnly');
    await writeFile(join(env.HOOKPM_HOME as string, 'cache', 'indexes', 'acme.json'), '');
    const none = await hookpm('info', 'guard@acme', '--offline', '--json');
    expect(none.code).toBe(1);
    expect(json<{ error: { code: string } }>(none).error.code).toBe('E_OFFLINE');
    server = await startIndexServer();
  });
});
