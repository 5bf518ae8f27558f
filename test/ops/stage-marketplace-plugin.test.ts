import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  readMarketplace,
  type ReadMarketplace,
} from '../../src/ops/steps/catalogs/read-marketplace.js';
import {
  stageMarketplacePlugin,
  type MarketplaceStageContext,
} from '../../src/ops/steps/catalogs/fetch-marketplace.js';
import { buildSurface } from '../../src/plugin/surface.js';
import { resolveStorePaths } from '../../src/store/paths.js';
import {
  startVerdaccio,
  VERDACCIO_START_TIMEOUT_MS,
  type Verdaccio,
} from '../helpers/verdaccio.js';
import { gitTestEnv, makeRepo, requireGit, writeFiles } from '../helpers/git-repo.js';
import { INSTALL_TIMEOUT_MS } from '../helpers/system-package.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';
import { codeOf } from '../helpers/failure.js';

const HOOKS = {
  hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo guard' }] }] },
};
const INLINE = { Stop: [{ hooks: [{ type: 'command', command: 'echo stop' }] }] };

let tmp: string;
let home: TempHome;
let registry: Verdaccio;
let ctx: MarketplaceStageContext;
let dir: string;
let pluginRepo: string;
let pluginCommit: string;
const reads: ReadMarketplace[] = [];

/** The files of a marketplace holding plugins of every source kind. */
function marketplaceFiles(): Record<string, string> {
  const catalog = {
    name: 'Acme Marketplace',
    owner: { name: 'Acme' },
    plugins: [
      { name: 'guard', source: './plugins/guard', version: '0.9.0' },
      {
        name: 'inline',
        source: './plugins/inline',
        strict: false,
        version: '1.2.0',
        hooks: INLINE,
      },
      { name: 'bare', source: './plugins/bare' },
      { name: 'escape', source: './../outside' },
      { name: 'linked', source: './plugins/linked' },
      { name: 'renamed', source: './plugins/renamed' },
      {
        name: 'remote',
        source: { source: 'url', url: pathToFileURL(pluginRepo).href, path: 'sub' },
      },
      { name: 'from-npm', source: { source: 'npm', package: '@acme/from-npm', version: '^1.0.0' } },
    ],
  };
  return {
    '.claude-plugin/marketplace.json': JSON.stringify(catalog),
    'plugins/guard/.claude-plugin/plugin.json': JSON.stringify({ name: 'guard', version: '1.0.0' }),
    'plugins/guard/hooks/hooks.json': JSON.stringify(HOOKS),
    'plugins/inline/README.md': 'no manifest here\n',
    'plugins/bare/hooks/hooks.json': JSON.stringify(HOOKS),
    'plugins/renamed/plugin.json': JSON.stringify({ name: 'other-name' }),
  };
}

beforeAll(requireGit, INSTALL_TIMEOUT_MS);
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'hookpm-mkt-'));
  home = await makeTempHome();
  const env = gitTestEnv(home.dir);
  // A real private registry (Verdaccio): `@acme/*` needs the token, which ~/.npmrc holds (K4, K5).
  registry = await startVerdaccio();
  const token = await registry.addUser('publisher', 'publisher-password');
  await registry.publishFiles(
    {
      'package.json': JSON.stringify({ name: '@acme/from-npm', version: '1.0.1' }),
      'plugin.json': JSON.stringify({ name: 'from-npm', version: '1.0.1' }),
      'hooks/hooks.json': JSON.stringify(HOOKS),
    },
    token,
  );
  await writeFile(join(home.dir, '.npmrc'), `${registry.nerfDart}:_authToken=\${NPM_TOKEN}\n`);
  ctx = {
    paths: resolveStorePaths(home.env),
    env: {
      ...env,
      HOOKPM_HOME: home.env.HOOKPM_HOME ?? '',
      HOOKPM_NPM_REGISTRY: registry.url,
      NPM_TOKEN: token,
    },
    cwd: tmp,
  };
  pluginRepo = join(tmp, 'plugin-repo');
  pluginCommit = await makeRepo(pluginRepo, env, {
    'sub/plugin.json': JSON.stringify({ name: 'remote' }),
    'sub/hooks/hooks.json': JSON.stringify(HOOKS),
    'other.txt': 'x',
  });
  dir = join(tmp, 'market');
  await mkdir(dir);
  await writeFiles(dir, marketplaceFiles());
  await mkdir(join(tmp, 'outside'));
  await symlink(join(tmp, 'outside'), join(dir, 'plugins', 'linked'));
}, VERDACCIO_START_TIMEOUT_MS);

afterAll(async () => {
  for (const read of reads) await read.dispose();
  await registry?.stop();
  await home.cleanup();
  await rm(tmp, { recursive: true, force: true });
});

async function read(location: string): Promise<ReadMarketplace> {
  const result = await readMarketplace(location, { cwd: tmp, env: ctx.env, paths: ctx.paths });
  reads.push(result);
  return result;
}

async function stage(market: ReadMarketplace, name: string) {
  const entry = market.marketplace.plugins.find((p) => p.name === name);
  if (entry === undefined) throw new Error(`no entry ${name}`);
  return stageMarketplacePlugin(market, entry, ctx);
}

describe('a local marketplace directory (registry.md 1, kind marketplace)', () => {
  it('reads the catalog in place; the marketplace name is a label', async () => {
    const market = await read(dir);
    expect(market.kind).toBe('directory');
    expect(market.marketplace.name).toBe('Acme Marketplace');
    expect(market.marketplace.plugins).toHaveLength(8);
    expect(market.roots).toEqual({ root: dir, boundary: dir });
  });

  it('stages a ./ plugin with its hooks resolved; the manifest version wins; the integrity is that of the packed tree', async () => {
    const market = await read(dir);
    const one = await stage(market, 'guard');
    const two = await stage(market, 'guard');
    expect(one).toMatchObject({
      name: 'guard',
      version: '1.0.0',
      source: join(dir, 'plugins', 'guard'),
    });
    expect(one.integrity).toMatch(/^sha512-/);
    expect(two.integrity).toBe(one.integrity);
    expect(buildSurface(one.plugin).events).toEqual(['PreToolUse']);
  });

  it('an entry with inline hooks and no manifest in its tree gets one made of the entry (strict: false)', async () => {
    const staged = await stage(await read(dir), 'inline');
    expect(
      JSON.parse(await readFile(join(staged.dir, '.claude-plugin', 'plugin.json'), 'utf8')),
    ).toMatchObject({ name: 'inline', version: '1.2.0', hooks: INLINE });
    expect(staged.version).toBe('1.2.0');
    expect(buildSurface(staged.plugin).events).toEqual(['Stop']);
  });

  it('a tree with neither manifest nor entry version is versioned by its tree digest', async () => {
    const staged = await stage(await read(dir), 'bare');
    expect(staged.version).toMatch(/^0\.0\.0-t[0-9a-f]{12}$/);
    expect(buildSurface(staged.plugin).events).toEqual(['PreToolUse']);
  });

  it('a source climbing out of the marketplace is E_REGISTRY_SCHEMA; a symlink out of it is E_SYMLINK_ESCAPE', async () => {
    const market = await read(dir);
    expect(await codeOf(stage(market, 'escape'))).toBe('E_REGISTRY_SCHEMA');
    expect(await codeOf(stage(market, 'linked'))).toBe('E_SYMLINK_ESCAPE');
  });

  it('security.md: a manifest naming another plugin than the entry is E_MANIFEST_MISMATCH', async () => {
    expect(await codeOf(stage(await read(dir), 'renamed'))).toBe('E_MANIFEST_MISMATCH');
  });

  it('a url source with a path is cloned at its commit and the subdirectory staged', async () => {
    const staged = await stage(await read(dir), 'remote');
    expect(staged.commit).toBe(pluginCommit);
    expect(staged.version).toBe(`0.0.0-g${pluginCommit.slice(0, 12)}`);
    expect(staged.source).toBe(`git+${pathToFileURL(pluginRepo).href}#${pluginCommit}:sub`);
    expect(staged.plugin.name).toBe('remote');
    expect(buildSurface(staged.plugin).events).toEqual(['PreToolUse']);
  });

  it('an npm source comes from the npm registry with its dist.integrity', async () => {
    const staged = await stage(await read(dir), 'from-npm');
    expect(staged).toMatchObject({
      name: 'from-npm',
      version: '1.0.1',
      source: 'npm:@acme/from-npm@1.0.1',
    });
    expect(staged.integrity).toMatch(/^sha512-/);
  });
});

describe('a marketplace in a local git repository (file://)', () => {
  it('is cloned; ./ plugins come from the commit, with the same integrity as the same tree in place', async () => {
    const repo = join(tmp, 'market-repo');
    const commit = await makeRepo(repo, gitTestEnv(home.dir), marketplaceFiles());
    const market = await read(pathToFileURL(repo).href);
    expect(market.kind).toBe('git');
    expect(market.commit).toBe(commit);
    const staged = await stage(market, 'guard');
    expect(staged).toMatchObject({ name: 'guard', version: '1.0.0', commit });
    expect(staged.source).toBe(`git+${pathToFileURL(repo).href}#${commit}:plugins/guard`);
    const inPlace = await stage(await read(dir), 'guard');
    expect(staged.integrity).toBe(inPlace.integrity);
    expect((await stage(market, 'bare')).version).toBe(`0.0.0-g${commit.slice(0, 12)}`);
    await market.dispose();
  });

  it('a repository without a marketplace is E_NOT_FOUND, and the clone is removed', async () => {
    expect(await codeOf(read(pathToFileURL(pluginRepo).href))).toBe('E_NOT_FOUND');
  });
});

describe('a marketplace.json served over http(s)', () => {
  it('is read alone; its ./ sources cannot be staged (E_USAGE), its npm sources can, and J14: its git source on this machine is left out with E_INSECURE_URL', async () => {
    const text = JSON.parse(
      marketplaceFiles()['.claude-plugin/marketplace.json'] ?? '{}',
    ) as object;
    const server: Server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(text));
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const { port } = server.address() as { port: number };
    try {
      const market = await read(`http://127.0.0.1:${port}/marketplace.json`);
      expect(market.kind).toBe('url');
      expect(market.origin).toBe('remote');
      expect(market.roots).toBe(null);
      expect(market.marketplace.plugins.map((p) => p.name)).not.toContain('remote');
      expect(market.excluded).toEqual([
        expect.objectContaining({ name: 'remote', code: 'E_INSECURE_URL' }),
      ]);
      expect(await codeOf(stage(market, 'guard'))).toBe('E_USAGE');
      expect((await stage(market, 'from-npm')).version).toBe('1.0.1');
    } finally {
      server.close();
    }
  });
});
