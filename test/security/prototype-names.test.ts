/**
 * security.md ("the principles decide the cases that are not listed") for names that are also
 * properties of Object.prototype: `constructor`, `toString`, `hasOwnProperty`, `valueOf` and
 * `__proto__` as plugin names, versions and dist-tags, on the command line (install, info, review,
 * update, uninstall) against an index, a marketplace and an npm registry on 127.0.0.1, and inside
 * a hostile index and npm package document. Each is the error an unknown name gets (E_NOT_FOUND,
 * E_NO_MATCHING_VERSION, E_NOT_INSTALLED; E_NAME_INVALID or E_USAGE where the word is no name or
 * tag at all), never E_INTERNAL, and the store is byte-identical after each.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveStorePaths } from '../../src/store/paths.js';
import type { StorePaths } from '../../src/store/store-paths.js';
import { ensureBuilt, runBin } from '../helpers/built-bin.js';
import { startFakeNpmRegistry, type FakeNpmRegistry } from '../helpers/fake-npm-registry.js';
import { writeFiles } from '../helpers/git-repo.js';
import {
  publishPlugin,
  startPluginRegistry,
  type ServedRegistry,
} from '../helpers/plugin-registry.js';
import { hashStore } from '../helpers/store-snapshot.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';
import { marketplaceCatalog } from '../helpers/claude-plugin.js';

const HOOKS = JSON.stringify({
  hooks: { Stop: [{ hooks: [{ type: 'command', command: 'true' }] }] },
});

let home: TempHome;
let paths: StorePaths;
let acme: ServedRegistry;
let evil: ServedRegistry;
let npm: FakeNpmRegistry;

async function hookpm(...args: string[]): Promise<{ code: number | null; json: any }> {
  const run = await runBin([...args, '--json'], { env: home.env, cwd: home.dir });
  return { code: run.code, json: run.stdout === '' ? null : JSON.parse(run.stdout) };
}

beforeAll(async () => {
  ensureBuilt();
  home = await makeTempHome('hookpm-proto-');
  paths = resolveStorePaths(home.env);
  acme = await startPluginRegistry('acme');
  await publishPlugin(acme, 'guard', '1.0.0');
  await publishPlugin(acme, 'gate', '1.0.0');
  evil = await startPluginRegistry('evil');
  await publishPlugin(evil, 'guard', '1.0.0');
  const manifest = JSON.stringify({ name: 'npm-guard', version: '1.0.0' });
  npm = await startFakeNpmRegistry({
    'npm-guard': {
      // A hostile package document: dist-tags naming prototype properties.
      distTags: { latest: '1.0.0', next: 'constructor', beta: 'toString' },
      versions: { '1.0.0': { files: { 'plugin.json': manifest, 'hooks/hooks.json': HOOKS } } },
    },
  });
  home.env['HOOKPM_NPM_REGISTRY'] = npm.url;
  const market = join(home.dir, 'market');
  await writeFiles(market, {
    '.claude-plugin/marketplace.json': JSON.stringify(
      marketplaceCatalog('Market', [
        { name: 'guard', source: './plugins/guard' },
        { name: '__proto__', source: './plugins/guard' },
        { name: 'toString', source: './plugins/guard' },
      ]),
    ),
    'plugins/guard/plugin.json': JSON.stringify({ name: 'guard', version: '1.0.0' }),
    'plugins/guard/hooks/hooks.json': HOOKS,
  });
  for (const [name, location] of [
    ['acme', acme.url],
    ['evil', evil.url],
    ['mkt', market],
  ] as const) {
    const added = await hookpm('registry', 'add', name, location);
    expect(added.code, JSON.stringify(added.json)).toBe(0);
  }
  expect((await hookpm('install', 'guard@acme', '--yes')).code).toBe(0);
}, 120_000);
afterAll(async () => {
  await Promise.all([acme.close(), evil.close(), npm.close()]);
  await home.cleanup();
});

const NAMES = ['constructor', 'toString', 'hasOwnProperty', 'valueOf', '__proto__'];
/** What an unknown word gets in each place: `constructor` is a valid name, the rest are not. */
const asName = (n: string, unknown: string): string =>
  n === 'constructor' ? unknown : 'E_NAME_INVALID';
const asTag = (n: string): string => (n === '__proto__' ? 'E_USAGE' : 'E_NO_MATCHING_VERSION');

const CASES: [string[], string][] = NAMES.flatMap((n): [string[], string][] => [
  [['install', n, '--yes'], asName(n, 'E_NOT_FOUND')],
  [['install', `${n}@acme`, '--yes'], asName(n, 'E_NOT_FOUND')],
  [['install', `${n}@mkt`, '--yes'], asName(n, 'E_NOT_FOUND')],
  [['install', `${n}@npm`, '--yes'], asName(n, 'E_NOT_FOUND')],
  [['install', `gate@${n}`, '--yes'], asTag(n)],
  [['install', `guard@acme@${n}`, '--yes'], asTag(n)],
  [['install', `guard@mkt@${n}`, '--yes'], asTag(n)],
  [['install', `npm-guard@npm@${n}`, '--yes'], asTag(n)],
  [['info', n], asName(n, 'E_NOT_FOUND')],
  [['review', n], asName(n, 'E_NOT_FOUND')],
  [['review', `guard@acme@${n}`], asTag(n)],
  [['update', n], 'E_NOT_INSTALLED'],
  [['uninstall', n], 'E_NOT_INSTALLED'],
]);

describe('prototype property names are names like any other', () => {
  it.each(CASES)(
    'V1, V2: `hookpm %j` fails as for an unknown name (%s), never E_INTERNAL; the store is byte-identical',
    async (args, code) => {
      const before = await hashStore(paths);
      const run = await hookpm(...args);
      expect(run.code).toBe(code === 'E_USAGE' ? 2 : 1);
      expect(run.json?.error?.code, run.json?.error?.message).toBe(code);
      expect(await hashStore(paths)).toEqual(before);
    },
  );

  it('I2: an index whose dist-tag names `constructor` is E_REGISTRY_SCHEMA naming the field; the store is byte-identical', async () => {
    // The index turns hostile: a dist-tag naming `constructor`, which every plain object "has".
    const tags = (evil.index.plugins['guard'] as { distTags: Record<string, string> }).distTags;
    tags['next'] = 'constructor';
    try {
      const before = await hashStore(paths);
      const run = await hookpm('install', 'guard@evil@next', '--yes');
      expect(run.json.error.code).toBe('E_REGISTRY_SCHEMA');
      expect(run.json.error.message).toContain('plugins.guard.distTags.next names constructor');
      expect(await hashStore(paths)).toEqual(before);
    } finally {
      delete tags['next'];
    }
  });

  it('V2: dist-tags of an npm package document that name `constructor` or `toString` are dropped: E_NO_MATCHING_VERSION; the store is byte-identical', async () => {
    for (const tag of ['next', 'beta']) {
      const before = await hashStore(paths);
      const run = await hookpm('install', `npm-guard@npm@${tag}`, '--yes');
      expect(run.json.error.code, run.json.error.message).toBe('E_NO_MATCHING_VERSION');
      expect(await hashStore(paths)).toEqual(before);
    }
  });

  it('P3: a plugin named `constructor` is installed, found, listed and uninstalled like any other', async () => {
    await publishPlugin(acme, 'constructor', '1.0.0');
    expect((await hookpm('registry', 'update', 'acme')).code).toBe(0);
    const installed = await hookpm('install', 'constructor', '--yes');
    expect(installed.json.installed[0]).toMatchObject({
      id: 'constructor@acme',
      status: 'installed',
    });
    expect((await hookpm('info', 'constructor')).json).toMatchObject({ id: 'constructor@acme' });
    const listed = await hookpm('list');
    expect(listed.json.plugins.map((p: { id: string }) => p.id)).toContain('constructor@acme');
    expect((await hookpm('uninstall', 'constructor')).code).toBe(0);
  });

  it('J3: a registry named `constructor` in hookpm.json is used like any other: `install` in the project installs from it', async () => {
    const project = join(home.dir, 'project-constructor');
    await writeFiles(project, {
      '.git/HEAD': 'ref: refs/heads/main\n',
      'hookpm.json': JSON.stringify({
        plugins: { 'gate@constructor': '^1.0.0' },
        registries: { constructor: acme.url },
      }),
    });
    const run = await runBin(['install', '--yes', '--json'], { env: home.env, cwd: project });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).installed[0]).toMatchObject({ id: 'gate@constructor' });
  });
});
