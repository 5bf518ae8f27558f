/**
 * Registries of kind marketplace and npm through the operations (registry.md section 1; V1, V2,
 * N4, D5 as they apply to them): the catalog a marketplace gives, its cache, install by name,
 * update, review, and `<package>@npm` without an added npm registry. Real temp dirs, real git
 * repositories made at test time, a fake npm registry on 127.0.0.1.
 */
import { createServer } from 'node:http';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addRegistry } from '../../src/ops/registries/add.js';
import { checkRegistries } from '../../src/ops/doctor/registries.js';
import { installPlugins } from '../../src/ops/install/install.js';
import type { InstallOptions } from '../../src/ops/steps/transaction/options.js';
import { updateRegistries } from '../../src/ops/registries/list.js';
import { loadCatalogs } from '../../src/ops/steps/catalogs/load-catalogs.js';
import type { OperationContext } from '../../src/ops/steps/context/operation-context.js';
import { reviewAny } from '../../src/ops/review/review-any.js';
import { searchPlugins } from '../../src/ops/registries/search.js';
import { updatePlugins } from '../../src/ops/plugins/update.js';
import { INDEX_MAX_AGE_MS } from '../../src/registry/indexes/load-index.js';
import { resolveStorePaths, stateFile } from '../../src/store/paths.js';
import type { StorePaths } from '../../src/store/store-paths.js';
import { readState } from '../../src/store/state/state.js';
import type { RegistryRecord } from '../../src/store/state/state-schema.js';
import { startVerdaccio, VERDACCIO_START_TIMEOUT_MS } from '../helpers/verdaccio.js';
import { hashStore } from '../helpers/store-snapshot.js';
import { commitFiles, gitTestEnv, makeRepo, requireGit, writeFiles } from '../helpers/git-repo.js';
import { INSTALL_TIMEOUT_MS } from '../helpers/system-package.js';
import { failure } from '../helpers/failure.js';

const STOP = { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'true' }] }] } };

function files(version: string): Record<string, string> {
  const catalog = {
    name: 'Market',
    owner: { name: 'Me' },
    plugins: [
      { name: 'greet', source: './plugins/greet', description: 'Greets', category: 'fun' },
      { name: 'far', source: { source: 'github', repo: 'acme/far' }, description: 'Far away' },
    ],
  };
  return {
    '.claude-plugin/marketplace.json': JSON.stringify(catalog),
    'plugins/greet/.claude-plugin/plugin.json': JSON.stringify({ name: 'greet', version }),
    'plugins/greet/hooks/hooks.json': JSON.stringify(STOP),
  };
}

let root: string;
let local: string;
let repo: string;
let paths: StorePaths;
let clock: number;
const gitEnv = () => gitTestEnv(root);

function record(location: string): RegistryRecord {
  return { location, kind: 'marketplace', addedAt: '2026-11-30T00:00:00.000Z' };
}

function registryCtx(offline = false): OperationContext {
  return {
    paths,
    offline,
    now: () => new Date(clock),
    defaults: { mkt: record(local), mktgit: record(pathToFileURL(repo).href) },
  };
}

function pluginCtx(): OperationContext {
  const { defaults, now } = registryCtx();
  return { paths, now, ...(defaults === undefined ? {} : { defaults }) };
}

function install(...specs: string[]) {
  const opts: InstallOptions = { specs, cwd: root, enable: 'yes', force: false, dryRun: false };
  return installPlugins(pluginCtx(), opts);
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'hookpm-mkt-ops-'));
  local = join(root, 'local');
  await writeFiles(local, files('1.0.0'));
  repo = join(root, 'repo');
  await makeRepo(repo, gitEnv(), files('1.0.0'));
  paths = resolveStorePaths({ HOOKPM_HOME: join(root, 'home') });
  clock = Date.parse('2026-11-30T12:00:00.000Z');
});
afterEach(() => rm(root, { recursive: true, force: true }));

beforeAll(requireGit, INSTALL_TIMEOUT_MS);
describe('the catalog of a marketplace registry', () => {
  it('1: a relative-source plugin is listed with the version, integrity, events and surfaceHash an install records; a remote source with version 0.0.0-unknown and no events', async () => {
    const loaded = await loadCatalogs(registryCtx(), { only: (n) => n === 'mkt' });
    const index = loaded.catalogs[0]?.index;
    const greet = index?.plugins['greet'];
    expect(greet).toMatchObject({
      description: 'Greets',
      keywords: ['fun'],
      distTags: { latest: '1.0.0' },
    });
    expect(index?.plugins['far']).toMatchObject({
      distTags: { latest: '0.0.0-unknown' },
      versions: {
        '0.0.0-unknown': { tarball: 'git+https://github.com/acme/far.git', integrity: '' },
      },
    });
    const result = await install('greet@mkt');
    const state = await readState(paths);
    const installed = state.plugins['greet@mkt'];
    expect(result.installed[0]).toMatchObject({ id: 'greet@mkt', version: '1.0.0', enabled: true });
    expect(installed).toMatchObject({
      registry: 'mkt',
      source: 'greet@mkt',
      integrity: greet?.versions['1.0.0']?.integrity,
      surfaceHash: greet?.versions['1.0.0']?.surfaceHash,
      events: ['Stop'],
    });
  });

  it('N4: a local catalog is rebuilt when marketplace.json changes; a change to a plugin directory alone waits for `registry update`', async () => {
    const version = async () =>
      (await searchPlugins(registryCtx(), { query: 'greet' })).results.map((r) => r.version);
    expect(await version()).toEqual(['1.0.0', '1.0.0']);
    await writeFiles(local, {
      'plugins/greet/.claude-plugin/plugin.json': '{"name":"greet","version":"1.1.0"}',
    });
    expect((await version())[0]).toBe('1.0.0');
    await updateRegistries(registryCtx(), 'mkt');
    expect(await version()).toEqual(['1.1.0', '1.0.0']);
    const catalog = JSON.parse(
      await readFile(join(local, '.claude-plugin/marketplace.json'), 'utf8'),
    ) as {
      plugins: unknown[];
    };
    catalog.plugins.push({ name: 'hello', source: './plugins/hello', description: 'Hello' });
    await writeFiles(local, { 'plugins/hello/hooks/hooks.json': JSON.stringify(STOP) });
    await writeFile(join(local, '.claude-plugin/marketplace.json'), JSON.stringify(catalog));
    const found = await searchPlugins(registryCtx(), { query: 'hello' });
    expect(found.results.map((r) => [r.id, r.events])).toEqual([['hello@mkt', ['Stop']]]);
  });

  it('D5, N4: a git catalog is used from the cache while fresh, stale with a warning when git cannot fetch it, from the cache with --offline, and E_OFFLINE without one', async () => {
    const ids = async (ctx: OperationContext) => {
      const found = await searchPlugins(ctx, { query: 'greet' });
      return { ids: found.results.map((r) => r.id), warnings: found.warnings.map((w) => w.code) };
    };
    expect(await ids(registryCtx())).toEqual({ ids: ['greet@mkt', 'greet@mktgit'], warnings: [] });
    // The repository can no longer be fetched from (its objects are gone): git fails.
    await rm(join(repo, '.git', 'objects'), { recursive: true, force: true });
    await mkdir(join(repo, '.git', 'objects'));
    expect(await ids(registryCtx())).toEqual({ ids: ['greet@mkt', 'greet@mktgit'], warnings: [] });
    clock += INDEX_MAX_AGE_MS + 1000;
    expect(await ids(registryCtx())).toEqual({
      ids: ['greet@mkt', 'greet@mktgit'],
      warnings: ['E_GIT'],
    });
    expect(await ids(registryCtx(true))).toEqual({
      ids: ['greet@mkt', 'greet@mktgit'],
      warnings: [],
    });
    paths = resolveStorePaths({ HOOKPM_HOME: join(root, 'other-home') });
    expect(await ids(registryCtx(true))).toEqual({ ids: ['greet@mkt'], warnings: ['E_OFFLINE'] });
  });
});

describe('a marketplace.json served over http', () => {
  it('1: `registry add` of a loopback marketplace.json URL records kind marketplace; its relative entries are listed with unknown versions, and installing one says to add the repository instead (E_USAGE)', async () => {
    const server = createServer((req, res) => {
      const body = files('1.0.0')['.claude-plugin/marketplace.json'] as string;
      if (req.url !== '/market/marketplace.json') res.writeHead(404).end();
      else res.writeHead(200, { 'content-type': 'application/json' }).end(body);
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    try {
      const { port } = server.address() as { port: number };
      const url = `http://127.0.0.1:${port}/market/marketplace.json`;
      const ctx = { ...registryCtx(), defaults: {} };
      const added = await addRegistry(ctx, { name: 'web', location: url, cwd: root });
      expect(added).toEqual({
        name: 'web',
        kind: 'marketplace',
        location: url,
        plugins: 2,
        warnings: [],
      });
      const found = await searchPlugins(ctx, { query: 'greet' });
      expect(found.results.map((r) => [r.id, r.version])).toEqual([['greet@web', '0.0.0-unknown']]);
      const opts = {
        specs: ['greet@web'],
        cwd: root,
        enable: 'yes' as const,
        force: false,
        dryRun: false,
      };
      const error = await failure(installPlugins({ paths, defaults: {} }, opts));
      expect(error.code).toBe('E_USAGE');
      expect(error.message).toContain('read as a lone file');
    } finally {
      await new Promise<void>((done) => server.close(() => done()));
    }
  });
});

describe('doctor', () => {
  it('registry.md N4: doctor finds a marketplace catalog in the cache, and says to update a registry without one', async () => {
    await loadCatalogs(registryCtx(), { only: (n) => n === 'mkt' });
    const checks = await checkRegistries(paths, await readState(paths), {
      online: false,
      ...(registryCtx().defaults === undefined ? {} : { defaults: registryCtx().defaults }),
    });
    const byName = Object.fromEntries(checks.map((c) => [c.name, c]));
    expect(byName['registry:mkt']).toMatchObject({ status: 'ok' });
    expect(byName['registry:mkt']?.message).toContain('cached marketplace catalog (2 plugins)');
    expect(byName['registry:mktgit']).toMatchObject({
      status: 'warning',
      fix: 'hookpm registry update mktgit',
    });
  });
});

describe('installing and updating marketplace plugins', () => {
  it('V2: a range the listed version does not satisfy is E_NO_MATCHING_VERSION and writes no state', async () => {
    const error = await failure(install('greet@mkt@^2'));
    expect(error.code).toBe('E_NO_MATCHING_VERSION');
    expect(error.message).toContain('offers version 1.0.0');
    expect(await readFile(stateFile(paths)).catch(() => null)).toBeNull();
  });

  it('V3: the same version with other files is E_INTEGRITY_CHANGED and the store is byte-identical', async () => {
    await install('greet@mkt');
    await writeFiles(local, { 'plugins/greet/extra.txt': 'changed\n' });
    const before = await hashStore(paths);
    const error = await failure(install('greet@mkt'));
    expect(error.code).toBe('E_INTEGRITY_CHANGED');
    expect(await hashStore(paths)).toEqual(before);
  });

  it('D5: --offline refuses a plugin that must be fetched (E_OFFLINE) and reads a local marketplace as usual', async () => {
    const offline = (spec: string) =>
      installPlugins(
        { ...pluginCtx(), offline: true },
        { specs: [spec], cwd: root, enable: 'yes', force: false, dryRun: false },
      );
    await loadCatalogs(registryCtx(), { only: (n) => n === 'mkt' });
    expect((await failure(offline('far@mkt'))).code).toBe('E_OFFLINE');
    expect((await offline('greet@mkt')).installed[0]).toMatchObject({ id: 'greet@mkt' });
  });

  it('cli.md review: `review greet@mktgit` shows the surface of the plugin in the repository and installs nothing', async () => {
    const review = await reviewAny(pluginCtx(), {
      target: 'greet@mktgit',
      cwd: root,
      includePrerelease: false,
    });
    expect(review).toMatchObject({
      id: 'greet@mktgit',
      version: '1.0.0',
      events: ['Stop'],
      consented: false,
    });
    expect(await readFile(stateFile(paths)).catch(() => null)).toBeNull();
  });

  it('update: a commit raising the version is installed by `update`; then the plugin is current', async () => {
    await install('greet@mktgit');
    await commitFiles(repo, gitEnv(), files('1.1.0'), 'bump');
    const opts = {
      names: [],
      cwd: root,
      enable: 'yes' as const,
      dryRun: false,
      allowDowngrade: false,
      includePrerelease: false,
    };
    const moved = await updatePlugins(pluginCtx(), opts);
    expect(moved.installed.map((p) => [p.id, p.version])).toEqual([['greet@mktgit', '1.1.0']]);
    const again = await updatePlugins(pluginCtx(), opts);
    expect(again.installed).toEqual([]);
    expect(again.skipped).toEqual([
      expect.objectContaining({ id: 'greet@mktgit', reason: 'current' }),
    ]);
    expect((await readState(paths)).plugins['greet@mktgit']?.version).toBe('1.1.0');
  });
});

describe('`<package>@npm` without an added npm registry', () => {
  const saved = process.env.HOOKPM_NPM_REGISTRY;
  let close: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    // A real npm registry (Verdaccio): the package is published with `npm publish`.
    const npm = await startVerdaccio();
    close = npm.stop;
    const token = await npm.addUser('publisher', 'publisher-password');
    await npm.publishFiles(
      {
        'package.json': JSON.stringify({ name: 'hookpm-stop', version: '1.0.0' }),
        'plugin.json': JSON.stringify({ name: 'stopper', version: '1.0.0' }),
        'hooks/hooks.json': JSON.stringify(STOP),
      },
      token,
    );
    process.env.HOOKPM_NPM_REGISTRY = npm.url;
  }, VERDACCIO_START_TIMEOUT_MS);
  afterAll(async () => {
    if (saved === undefined) delete process.env.HOOKPM_NPM_REGISTRY;
    else process.env.HOOKPM_NPM_REGISTRY = saved;
    await close?.();
  });

  it('1: `install hookpm-stop@npm` reads HOOKPM_NPM_REGISTRY and installs `stopper@npm` with range ^1.0.0', async () => {
    const result = await install('hookpm-stop@npm');
    expect(result.installed[0]).toMatchObject({
      id: 'stopper@npm',
      version: '1.0.0',
      enabled: true,
    });
    expect((await readState(paths)).plugins['stopper@npm']).toMatchObject({
      registry: 'npm',
      source: 'npm:hookpm-stop@1.0.0',
      range: '^1.0.0',
    });
  });
});
