import { beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseMarketplace } from '../../src/registry/marketplace/marketplace-schema.js';
import {
  CATALOG_FILES,
  catalogLayoutOf,
  catalogRootOf,
} from '../../src/registry/marketplace/catalog-files.js';
import { readLocationKind } from '../../src/registry/read-location-kind.js';
import { readMarketplace } from '../../src/ops/steps/catalogs/read-marketplace.js';
import { resolveStorePaths } from '../../src/store/paths.js';
import { validate } from '../../src/ops/validate/validate.js';
import { gitTestEnv, makeRepo, requireGit, writeFiles } from '../helpers/git-repo.js';
import { useTempDirs } from '../helpers/temp-dir.js';

const AGENTS = '.agents/plugins/marketplace.json';
const CLAUDE = '.claude-plugin/marketplace.json';
const newDir = useTempDirs('hookpm-catalog-layouts-');

function agentsEntry(name: string, source: unknown, extra: Record<string, unknown> = {}) {
  return { name, source, ...extra };
}

function plugin(name: string): Record<string, string> {
  return {
    [`plugins/${name}/.codex-plugin/plugin.json`]: JSON.stringify({ name, version: '1.0.0' }),
    [`plugins/${name}/hooks/hooks.json`]: JSON.stringify({
      hooks: { Stop: [{ hooks: [{ type: 'command', command: 'true' }] }] },
    }),
  };
}

describe("Codex's .agents/plugins/marketplace.json (plugins.md G10)", () => {
  it('G10: the layout and the root follow from where the file lies; relative sources resolve against the directory holding .agents/', () => {
    expect(catalogLayoutOf('/m/.agents/plugins/marketplace.json')).toBe('agents');
    expect(catalogRootOf('/m/.agents/plugins/marketplace.json')).toBe('/m');
    expect(catalogLayoutOf('/m/.claude-plugin/marketplace.json')).toBe('claude');
    expect(catalogRootOf('/m/.claude-plugin/marketplace.json')).toBe('/m');
    expect(catalogLayoutOf('/m/marketplace.json')).toBe('claude');
    expect(catalogRootOf('/m/marketplace.json')).toBe('/m');
  });

  it('G10: a catalog without owner is read; a local source is a "./" path below the root; NOT_AVAILABLE entries are left out with why', () => {
    const doc = {
      name: 'acme',
      interface: { displayName: 'Acme tools' },
      plugins: [
        agentsEntry('good', { source: 'local', path: './plugins/good' }, { category: 'Safety' }),
        agentsEntry('string', './plugins/string'),
        agentsEntry('climbs', { source: 'local', path: './../elsewhere' }),
        agentsEntry('bare', { source: 'local', path: 'plugins/bare' }),
        agentsEntry('root', { source: 'local', path: './' }),
        agentsEntry(
          'hidden',
          { source: 'local', path: './plugins/hidden' },
          {
            policy: { installation: 'NOT_AVAILABLE' },
          },
        ),
        agentsEntry('remote', { source: 'github', repo: 'acme/remote' }),
      ],
    };
    const parsed = parseMarketplace(doc, AGENTS);
    expect(parsed.marketplace?.owner).toEqual({ name: 'Acme tools' });
    expect(parsed.marketplace?.plugins.map((p) => [p.name, p.source])).toEqual([
      ['good', { kind: 'path', path: 'plugins/good', climbs: 0 }],
      ['string', { kind: 'path', path: 'plugins/string', climbs: 0 }],
      ['remote', { kind: 'git', from: 'github', url: 'https://github.com/acme/remote.git' }],
    ]);
    const why = Object.fromEntries(parsed.excluded.map((e) => [e.name, e.message]));
    expect(Object.keys(why)).toEqual(['climbs', 'bare', 'root', 'hidden']);
    expect(why['climbs']).toMatch(/source\.path .*must stay below the marketplace root/);
    expect(why['bare']).toMatch(/source\.path must be a "\.\/" path/);
    expect(why['hidden']).toMatch(/policy\.installation is "NOT_AVAILABLE"/);
  });

  it("G10: Claude Code's catalog keeps its own rules: owner is required and a local source object is not one of its kinds", () => {
    const noOwner = parseMarketplace({ name: 'acme', plugins: [] }, CLAUDE);
    expect(noOwner.marketplace).toBeNull();
    const local = parseMarketplace(
      {
        name: 'acme',
        owner: { name: 'Acme' },
        plugins: [agentsEntry('a', { source: 'local', path: './a' })],
      },
      CLAUDE,
    );
    expect(local.excluded[0]?.message).toMatch(/source\.source is "local"/);
  });

  it('G10: with both files, .claude-plugin/marketplace.json is the catalog and the other is never read', async () => {
    const root = await newDir();
    await writeFiles(root, {
      [CLAUDE]: JSON.stringify({
        name: 'claude-side',
        owner: { name: 'A' },
        plugins: [{ name: 'from-claude', source: './plugins/from-claude' }],
      }),
      [AGENTS]: '{ not json',
      ...plugin('from-claude'),
    });
    expect(await readLocationKind(root)).toEqual({ kind: 'marketplace', dir: root });
    const paths = resolveStorePaths({ HOOKPM_HOME: join(root, 'home') });
    const read = await readMarketplace(root, { cwd: root, env: {}, paths });
    expect(read.file).toBe(join(root, '.claude-plugin', 'marketplace.json'));
    expect(read.marketplace.plugins.map((p) => p.name)).toEqual(['from-claude']);
    const report = await validate({ path: root, strict: false });
    expect(report).toMatchObject({ kind: 'marketplace', ok: true, plugins: ['from-claude'] });
  });

  it('N6: a marketplace repository with a registry.json of another tool beside its catalog stays a marketplace; alone, registry.json makes an index', async () => {
    const root = await newDir();
    await writeFiles(root, {
      'registry.json': JSON.stringify({ tool: 'not hookpm' }),
      [CLAUDE]: JSON.stringify({ name: 'm', owner: { name: 'A' }, plugins: [] }),
    });
    expect(await readLocationKind(root)).toEqual({ kind: 'marketplace', dir: root });
    const sparse = await newDir();
    await writeFiles(sparse, { 'registry.json': '{}' });
    expect(await readLocationKind(sparse)).toEqual({ kind: 'index', dir: sparse });
    expect(await readLocationKind(join(sparse, 'registry.json'))).toEqual({
      kind: 'index',
      dir: sparse,
    });
  });

  it('G10: a directory with only .agents/plugins/marketplace.json is a marketplace, and its file names the root', async () => {
    const root = await newDir();
    await writeFiles(root, {
      [AGENTS]: JSON.stringify({
        name: 'agents-side',
        plugins: [agentsEntry('from-agents', { source: 'local', path: './plugins/from-agents' })],
      }),
      ...plugin('from-agents'),
    });
    expect(await readLocationKind(root)).toEqual({ kind: 'marketplace', dir: root });
    expect(await readLocationKind(join(root, AGENTS))).toEqual({ kind: 'marketplace', dir: root });
    const paths = resolveStorePaths({ HOOKPM_HOME: join(root, 'home') });
    const read = await readMarketplace(join(root, AGENTS), { cwd: root, env: {}, paths });
    expect(read.roots?.root).toBe(root);
    const report = await validate({ path: root, strict: false });
    expect(report).toMatchObject({ kind: 'marketplace', ok: true, plugins: ['from-agents'] });
  });
});

describe("Codex's api_marketplace.json and Cursor's catalog, in one order (plugins.md G13)", () => {
  const API = '.agents/plugins/api_marketplace.json';
  beforeAll(async () => {
    await requireGit();
  }, 120_000);
  const CURSOR = '.cursor-plugin/marketplace.json';

  /** Each catalog file, listing a plugin named after it, in the format of its agent. */
  function catalogs(): Record<string, string> {
    const local = (name: string) => ({ source: 'local', path: `./plugins/${name}` });
    return {
      [CLAUDE]: JSON.stringify({
        name: 'claude-side',
        owner: { name: 'A' },
        plugins: [{ name: 'from-claude', source: './plugins/from-claude' }],
      }),
      [AGENTS]: JSON.stringify({
        name: 'agents-side',
        plugins: [agentsEntry('from-agents', local('from-agents'))],
      }),
      [API]: JSON.stringify({
        name: 'api-side',
        plugins: [agentsEntry('from-api', local('from-api'))],
      }),
      [CURSOR]: JSON.stringify({
        name: 'cursor-side',
        plugins: [{ name: 'from-cursor', source: './plugins/from-cursor' }],
      }),
      ...plugin('from-claude'),
      ...plugin('from-agents'),
      ...plugin('from-api'),
      ...plugin('from-cursor'),
    };
  }

  it('G13: the layout and the root follow from where the file lies, for api_marketplace.json and .cursor-plugin', () => {
    expect(catalogLayoutOf('/m/.agents/plugins/api_marketplace.json')).toBe('agents');
    expect(catalogRootOf('/m/.agents/plugins/api_marketplace.json')).toBe('/m');
    expect(catalogLayoutOf('/m/.cursor-plugin/marketplace.json')).toBe('cursor');
    expect(catalogRootOf('/m/.cursor-plugin/marketplace.json')).toBe('/m');
    expect(CATALOG_FILES).toEqual([CLAUDE, AGENTS, API, CURSOR]);
  });

  it("G13: Cursor's catalog is Claude Code's document with owner optional; a local source object stays invalid in it", () => {
    const parsed = parseMarketplace(
      {
        name: 'cursor-side',
        metadata: { description: 'd' },
        plugins: [
          { name: 'ok', source: './plugins/ok' },
          agentsEntry('local', { source: 'local', path: './plugins/local' }),
        ],
      },
      CURSOR,
    );
    expect(parsed.marketplace?.owner).toEqual({ name: 'cursor-side' });
    expect(parsed.marketplace?.plugins.map((p) => p.name)).toEqual(['ok']);
    expect(parsed.excluded[0]?.message).toMatch(/source\.source is "local"/);
    const notOne = parseMarketplace({ name: 'cursor-side' }, CURSOR);
    expect(notOne.diagnostics[0]?.message).toMatch(
      /a marketplace has "name" and a "plugins" array/,
    );
  });

  it('G13: with every catalog present, each is read only when all before it in CATALOG_FILES are absent (directory, file:// git, validate)', async () => {
    const order: [string, string][] = [
      [CLAUDE, 'from-claude'],
      [AGENTS, 'from-agents'],
      [API, 'from-api'],
      [CURSOR, 'from-cursor'],
    ];
    for (let drop = 0; drop < order.length; drop++) {
      const root = await newDir();
      const files = catalogs();
      // The catalogs before this one are absent; those after it are broken, and never read.
      for (const [file] of order.slice(0, drop)) delete files[file];
      for (const [file] of order.slice(drop + 1)) files[file] = '{ not json';
      await writeFiles(root, files);
      const [file, name] = order[drop]!;
      expect(await readLocationKind(root)).toEqual({ kind: 'marketplace', dir: root });
      expect(await readLocationKind(join(root, file))).toEqual({ kind: 'marketplace', dir: root });
      const paths = resolveStorePaths({ HOOKPM_HOME: join(root, 'home') });
      const read = await readMarketplace(root, { cwd: root, env: {}, paths });
      expect(read.file).toBe(join(root, ...file.split('/')));
      expect(read.marketplace.plugins.map((p) => p.name)).toEqual([name]);
      const report = await validate({ path: root, strict: false });
      expect(report).toMatchObject({ kind: 'marketplace', ok: true, plugins: [name] });
      const byFile = await validate({ path: join(root, file), strict: false });
      expect(byFile).toMatchObject({ kind: 'marketplace', ok: true, plugins: [name] });

      const repo = await newDir();
      await makeRepo(repo, gitTestEnv(repo), files);
      const cloned = await readMarketplace(pathToFileURL(repo).href, {
        cwd: root,
        env: gitTestEnv(repo),
        paths,
      });
      try {
        expect(cloned.kind).toBe('git');
        expect(cloned.marketplace.plugins.map((p) => p.name)).toEqual([name]);
      } finally {
        await cloned.dispose();
      }
    }
  });
});
