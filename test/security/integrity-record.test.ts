/**
 * registry.md V3 across an uninstall: the state keeps the integrity every registry version was
 * installed with (knownIntegrity), so a later reinstall of that version from a registry that now
 * serves other bytes is E_INTEGRITY_CHANGED, for an index, an npm registry and through the CLI;
 * `--force-integrity-change` accepts the new bytes and records them. The store is byte-identical
 * after every refusal. Real registries on 127.0.0.1, real tarballs, real temporary directories.
 */
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { HookpmError } from '../../src/errors.js';
import { installPlugins } from '../../src/ops/install/install.js';
import type { InstallOptions } from '../../src/ops/steps/transaction/options.js';
import type { OperationContext } from '../../src/ops/steps/context/operation-context.js';
import { uninstallPlugins } from '../../src/ops/plugins/uninstall.js';
import { INDEX_MAX_AGE_MS } from '../../src/registry/indexes/load-index.js';
import { readState, writeState } from '../../src/store/state/state.js';
import { ensureBuilt, runBin } from '../helpers/built-bin.js';
import { failsCleanly } from '../helpers/failure.js';
import { writeFiles } from '../helpers/git-repo.js';
import {
  startFakeNpmRegistry,
  type FakeNpmRegistry,
  onlyVersion,
} from '../helpers/fake-npm-registry.js';
import { publishPlugin } from '../helpers/plugin-registry.js';
import { hashStore } from '../helpers/store-snapshot.js';
import { acmeAt, installSpecs, useRegistryWorld } from '../helpers/registry-world.js';

const fx = useRegistryWorld();
let clock = Date.parse('2026-11-30T12:00:00.000Z');
let env: Record<string, string | undefined> = {};

const ctx = (): OperationContext => ({
  paths: fx.world.paths,
  now: () => new Date(clock),
  defaults: acmeAt(fx.acme.url),
  env,
});

const install = (specs: string[], over: Partial<InstallOptions> = {}) =>
  installSpecs(ctx(), fx.world.dir, specs, over);

const refused = (code: string, fn: () => Promise<unknown>): Promise<HookpmError> =>
  failsCleanly(fx.world.paths, code, fn);

const ONE = { PreToolUse: ['echo one'] };
const OTHER = { PreToolUse: ['echo other bytes'] };

beforeEach(() => {
  env = {};
});

describe('V3: an integrity record outlives the plugin', () => {
  it('V3: after an uninstall, a reinstall of the version the registry now serves with other bytes is E_INTEGRITY_CHANGED; the store is byte-identical', async () => {
    const first = await publishPlugin(fx.acme, 'guard', '1.0.0', ONE);
    await install(['guard']);
    await uninstallPlugins(ctx(), { names: ['guard'], keepData: false });
    expect((await readState(fx.world.paths)).knownIntegrity).toEqual({
      'guard@acme': { '1.0.0': first.integrity },
    });
    await publishPlugin(fx.acme, 'guard', '1.0.0', OTHER);
    clock += INDEX_MAX_AGE_MS + 1000;
    const error = await refused('E_INTEGRITY_CHANGED', () => install(['guard@1.0.0']));
    expect(error.message).toContain('guard@acme 1.0.0 was installed with integrity');
    expect(error.hint).toContain('--force-integrity-change');
  });

  it('V3: --force-integrity-change installs the new bytes and records their integrity; without it the next install is unchanged', async () => {
    await publishPlugin(fx.acme, 'guard', '1.0.0', ONE);
    await install(['guard']);
    await uninstallPlugins(ctx(), { names: ['guard'], keepData: false });
    const second = await publishPlugin(fx.acme, 'guard', '1.0.0', OTHER);
    clock += INDEX_MAX_AGE_MS + 1000;
    const result = await install(['guard@1.0.0'], { acceptIntegrityChange: true });
    expect(result.installed[0]).toMatchObject({ id: 'guard@acme', integrity: second.integrity });
    const state = await readState(fx.world.paths);
    expect(state.knownIntegrity?.['guard@acme']).toEqual({ '1.0.0': second.integrity });
    expect((await install(['guard@1.0.0'])).installed[0]?.status).toBe('unchanged');
  });

  it('V3: an installed version changed in place (not uninstalled) is accepted with --force-integrity-change too', async () => {
    await publishPlugin(fx.acme, 'guard', '1.0.0', ONE);
    await install(['guard']);
    const second = await publishPlugin(fx.acme, 'guard', '1.0.0', OTHER);
    clock += INDEX_MAX_AGE_MS + 1000;
    await refused('E_INTEGRITY_CHANGED', () => install(['guard@1.0.0'], { force: true }));
    const result = await install(['guard@1.0.0'], { acceptIntegrityChange: true });
    expect(result.installed[0]).toMatchObject({ status: 'installed', integrity: second.integrity });
    expect((await readState(fx.world.paths)).plugins['guard@acme']?.integrity).toBe(
      second.integrity,
    );
  });

  it('V3: uninstalling a plugin of a state written before knownIntegrity records its integrity then', async () => {
    const first = await publishPlugin(fx.acme, 'guard', '1.0.0', ONE);
    await install(['guard']);
    const { knownIntegrity: _dropped, ...older } = await readState(fx.world.paths);
    await writeState(fx.world.paths, older);
    await uninstallPlugins(ctx(), { names: ['guard'], keepData: false });
    expect((await readState(fx.world.paths)).knownIntegrity).toEqual({
      'guard@acme': { '1.0.0': first.integrity },
    });
  });

  it('V3: an npm package version whose tarball changed after an uninstall is E_INTEGRITY_CHANGED; the store is byte-identical', async () => {
    const hooks = JSON.stringify({
      hooks: { Stop: [{ hooks: [{ type: 'command', command: 'true' }] }] },
    });
    const served = (readme: string): Promise<FakeNpmRegistry> =>
      startFakeNpmRegistry({
        'npm-guard': onlyVersion('1.0.0', {
          'plugin.json': JSON.stringify({ name: 'npm-guard', version: '1.0.0' }),
          'hooks/hooks.json': hooks,
          'README.md': readme,
        }),
      });
    const before = await served('first');
    env = { HOOKPM_NPM_REGISTRY: before.url };
    try {
      await install(['npm-guard@npm']);
      await uninstallPlugins(ctx(), { names: ['npm-guard@npm'], keepData: false });
    } finally {
      await before.close();
    }
    const after = await served('changed');
    env = { HOOKPM_NPM_REGISTRY: after.url };
    try {
      await refused('E_INTEGRITY_CHANGED', () => install(['npm-guard@npm']));
      // V3: --dry-run reports what the install would do: the same refusal, not a plan.
      await refused('E_INTEGRITY_CHANGED', () => install(['npm-guard@npm'], { dryRun: true }));
      const accepted = await install(['npm-guard@npm'], {
        dryRun: true,
        acceptIntegrityChange: true,
      });
      expect(accepted.installed[0]).toMatchObject({ id: 'npm-guard@npm', status: 'would-install' });
    } finally {
      await after.close();
    }
  });
});

describe('V3 for two npm packages holding the same plugin', () => {
  it('V3: a second package publishing the installed plugin name and version with other bytes is E_INTEGRITY_CHANGED naming both packages, not the registry', async () => {
    const hooks = JSON.stringify({
      hooks: { Stop: [{ hooks: [{ type: 'command', command: 'true' }] }] },
    });
    const files = (readme: string) => ({
      'plugin.json': JSON.stringify({ name: 'npm-guard', version: '1.0.0' }),
      'hooks/hooks.json': hooks,
      'README.md': readme,
    });
    const npm = await startFakeNpmRegistry({
      'npm-guard': onlyVersion('1.0.0', files('original')),
      '@fork/npm-guard': onlyVersion('1.0.0', files('forked')),
    });
    env = { HOOKPM_NPM_REGISTRY: npm.url };
    try {
      await install(['npm:npm-guard']);
      const error = await refused('E_INTEGRITY_CHANGED', () => install(['npm:@fork/npm-guard']));
      expect(error.message).toContain(
        'npm-guard@npm 1.0.0 is installed from npm:npm-guard; npm:@fork/npm-guard publishes',
      );
      expect(error.message).not.toContain('the registry now serves');
      expect(error.hint).toContain('--force-integrity-change');
    } finally {
      await npm.close();
    }
  });
});

describe('V3 for a marketplace plugin', () => {
  it('V3: a marketplace plugin (manifest version `v1.2.0`) whose tree changed after an uninstall is E_INTEGRITY_CHANGED; the store is byte-identical', async () => {
    const market = join(fx.world.dir, 'market');
    const tree = (script: string) =>
      writeFiles(market, {
        '.claude-plugin/marketplace.json': JSON.stringify({
          name: 'Market',
          owner: { name: 'Me' },
          plugins: [{ name: 'greet', source: './plugins/greet' }],
        }),
        'plugins/greet/plugin.json': JSON.stringify({ name: 'greet', version: 'v1.2.0' }),
        'plugins/greet/hooks/hooks.json': JSON.stringify({
          hooks: { Stop: [{ hooks: [{ type: 'command', command: script }] }] },
        }),
      });
    await tree('true');
    const mkt = (): OperationContext => ({
      paths: fx.world.paths,
      defaults: { mkt: { location: market, kind: 'marketplace', addedAt: '2026-11-30T00:00:00Z' } },
    });
    const opts = {
      specs: ['greet@mkt'],
      cwd: fx.world.dir,
      enable: 'yes' as const,
      force: false,
      dryRun: false,
    };
    const installed = await installPlugins(mkt(), opts);
    await uninstallPlugins(mkt(), { names: ['greet@mkt'], keepData: false });
    const { version, integrity } = installed.installed[0] ?? {};
    expect((await readState(fx.world.paths)).knownIntegrity).toEqual({
      'greet@mkt': { [version ?? '']: integrity },
    });
    await tree('echo changed');
    await refused('E_INTEGRITY_CHANGED', () => installPlugins(mkt(), opts));
  });
});

describe('V3 on the command line', () => {
  it('V3: `hookpm install` refuses the changed version (E_INTEGRITY_CHANGED, store byte-identical) and `--force-integrity-change` takes it', async () => {
    ensureBuilt();
    const envOf = {
      ...(process.env as Record<string, string>),
      HOME: fx.world.home,
      HOOKPM_HOME: join(fx.world.dir, 'hookpm'),
    };
    const run = (...args: string[]) =>
      runBin([...args, '--json'], { env: envOf, cwd: fx.world.dir });
    expect((await run('registry', 'add', 'acme', fx.acme.url)).code).toBe(0);
    await publishPlugin(fx.acme, 'guard', '1.0.0', ONE);
    expect((await run('install', 'guard@acme', '--yes')).code).toBe(0);
    expect((await run('uninstall', 'guard')).code).toBe(0);
    await publishPlugin(fx.acme, 'guard', '1.0.0', OTHER);
    expect((await run('registry', 'update', 'acme')).code).toBe(0);
    const before = await hashStore(fx.world.paths);
    const refusedRun = await run('install', 'guard@acme@1.0.0', '--yes');
    expect(JSON.parse(refusedRun.stdout).error.code).toBe('E_INTEGRITY_CHANGED');
    expect(await hashStore(fx.world.paths)).toEqual(before);
    const accepted = await run('install', 'guard@acme@1.0.0', '--yes', '--force-integrity-change');
    expect(JSON.parse(accepted.stdout).installed[0]).toMatchObject({ id: 'guard@acme' });
  });
});
