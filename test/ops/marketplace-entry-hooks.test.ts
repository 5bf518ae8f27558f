import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
import { writeFiles } from '../helpers/git-repo.js';
import {
  onlyVersion,
  startFakeNpmRegistry,
  type FakeNpmRegistry,
} from '../helpers/fake-npm-registry.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';
import { failure } from '../helpers/failure.js';

/*
 * plugins.md G14: a marketplace entry's `hooks` (strict, the default) add to those of the plugin's
 * own manifest, as Claude Code merges them; they are never dropped because the tree has a manifest.
 */

const PRE = {
  PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo pre' }] }],
};
const STOP = { Stop: [{ hooks: [{ type: 'command', command: 'echo entry-stop' }] }] };
const manifest = (name: string, extra: object = {}): string =>
  JSON.stringify({ name, version: '1.0.0', ...extra });

let tmp: string;
let home: TempHome;
let ctx: MarketplaceStageContext;
let market: ReadMarketplace;
let npm: FakeNpmRegistry;

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'hookpm-entry-hooks-'));
  home = await makeTempHome();
  npm = await startFakeNpmRegistry({
    'from-npm': onlyVersion('1.0.0', {
      'plugin.json': manifest('from-npm'),
      'hooks/hooks.json': JSON.stringify({ hooks: PRE }),
    }),
  });
  const env = { ...home.env, HOOKPM_NPM_REGISTRY: npm.url };
  ctx = { paths: resolveStorePaths(home.env), env, cwd: tmp };
  const catalog = {
    name: 'm',
    owner: { name: 'o' },
    plugins: [
      { name: 'plain', source: './plain', hooks: STOP },
      { name: 'paths', source: './paths', hooks: './more.json' },
      { name: 'objects', source: './objects', hooks: { hooks: STOP } },
      { name: 'mixed', source: './mixed', hooks: STOP },
      { name: 'same', source: './same', hooks: './hooks/hooks.json' },
      { name: 'from-npm', source: { source: 'npm', package: 'from-npm' }, hooks: STOP },
      { name: 'two', source: './two', hooks: STOP },
    ],
  };
  await writeFiles(join(tmp, 'mkt'), {
    '.claude-plugin/marketplace.json': JSON.stringify(catalog),
    'plain/.claude-plugin/plugin.json': manifest('plain'),
    'plain/hooks/hooks.json': JSON.stringify({ hooks: PRE }),
    'paths/.claude-plugin/plugin.json': manifest('paths', { hooks: './pre.json' }),
    'paths/pre.json': JSON.stringify({ hooks: PRE }),
    'paths/more.json': JSON.stringify({ hooks: STOP }),
    'objects/.claude-plugin/plugin.json': manifest('objects', {
      hooks: { ...PRE, Stop: [{ hooks: [{ type: 'command', command: 'echo own-stop' }] }] },
    }),
    'mixed/.claude-plugin/plugin.json': manifest('mixed', { hooks: './pre.json' }),
    'mixed/pre.json': JSON.stringify({ hooks: PRE }),
    'same/.claude-plugin/plugin.json': manifest('same'),
    'same/hooks/hooks.json': JSON.stringify({ hooks: PRE }),
    // G5: the root manifest names the plugin, Claude Code's declares its hooks.
    'two/plugin.json': manifest('two'),
    'two/.claude-plugin/plugin.json': manifest('two', { hooks: PRE }),
  });
  market = await readMarketplace(join(tmp, 'mkt'), { cwd: tmp, env: ctx.env, paths: ctx.paths });
});

afterAll(async () => {
  await market?.dispose();
  await npm?.close();
  await home.cleanup();
  await rm(tmp, { recursive: true, force: true });
});

async function stage(name: string) {
  const entry = market.marketplace.plugins.find((p) => p.name === name);
  if (entry === undefined) throw new Error(`no entry ${name}`);
  return stageMarketplacePlugin(market, entry, ctx);
}

function commands(plugin: Awaited<ReturnType<typeof stage>>['plugin']): string[] {
  return buildSurface(plugin).entries.map((h) => `${h.event}:${h.command ?? ''}`);
}

describe('plugins.md G14: a strict entry adds its hooks to the plugin manifest', () => {
  it('an entry with inline hooks beside a manifest without hooks keeps both', async () => {
    const staged = await stage('plain');
    expect(commands(staged.plugin)).toEqual(['PreToolUse:echo pre', 'Stop:echo entry-stop']);
    expect(staged.version).toBe('1.0.0');
  });

  it('hooks paths of the entry follow those of the manifest', async () => {
    const staged = await stage('paths');
    const written = JSON.parse(
      await readFile(join(staged.dir, '.claude-plugin', 'plugin.json'), 'utf8'),
    ) as { hooks: unknown };
    expect(written.hooks).toEqual(['./pre.json', './more.json']);
    expect(commands(staged.plugin)).toEqual(['PreToolUse:echo pre', 'Stop:echo entry-stop']);
  });

  it("two inline objects: the entry's groups follow the manifest's, event by event", async () => {
    const staged = await stage('objects');
    expect(commands(staged.plugin)).toEqual([
      'PreToolUse:echo pre',
      'Stop:echo own-stop',
      'Stop:echo entry-stop',
    ]);
  });

  it("an npm source: the entry's hooks are added to the package's manifest too", async () => {
    const staged = await stage('from-npm');
    expect(commands(staged.plugin)).toEqual(['PreToolUse:echo pre', 'Stop:echo entry-stop']);
  });

  it('an entry naming the default hooks file again loads it once', async () => {
    const staged = await stage('same');
    expect(commands(staged.plugin)).toEqual(['PreToolUse:echo pre']);
  });

  it("the hooks of Claude Code's manifest beside a root plugin.json are kept (G5)", async () => {
    const staged = await stage('two');
    expect(commands(staged.plugin)).toEqual(['PreToolUse:echo pre', 'Stop:echo entry-stop']);
    const root = JSON.parse(await readFile(join(staged.dir, 'plugin.json'), 'utf8')) as object;
    expect(root).toEqual({ name: 'two', version: '1.0.0' });
  });

  it('an inline object and paths that cannot be combined are refused, naming the entry', async () => {
    const error = await failure(stage('mixed'));
    expect(error.code).toBe('E_REGISTRY_SCHEMA');
    expect(error.message).toMatch(/plugins\[3\] \(mixed\).*hooks/);
  });
});
