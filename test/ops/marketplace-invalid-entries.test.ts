/**
 * registry.md "Registry kinds" (a marketplace) with security.md's invariant: an entry the marketplace
 * lists but hookpm cannot use (an invalid field or name, a manifest naming another plugin, a
 * missing directory) is left out of the catalog, reported at `registry add` as a warning naming the
 * entry and why, and at `install` / `info` as E_REGISTRY_SCHEMA naming it and why, never a bare
 * E_NOT_FOUND; the store is byte-identical after each refusal. Real directories, the built CLI.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { installPlugins } from '../../src/ops/install/install.js';
import { describePlugin } from '../../src/ops/plugins/info.js';
import { addRegistry } from '../../src/ops/registries/add.js';
import type { OperationContext } from '../../src/ops/steps/context/operation-context.js';
import { resolveStorePaths } from '../../src/store/paths.js';
import type { StorePaths } from '../../src/store/store-paths.js';
import { ensureBuilt, runBin } from '../helpers/built-bin.js';
import { failure } from '../helpers/failure.js';
import { writeFiles } from '../helpers/git-repo.js';
import { hashStore } from '../helpers/store-snapshot.js';
import { marketplaceCatalog } from '../helpers/claude-plugin.js';

const STOP = JSON.stringify({
  hooks: { Stop: [{ hooks: [{ type: 'command', command: 'true' }] }] },
});

let root: string;
let market: string;
let paths: StorePaths;

beforeAll(() => ensureBuilt(), 120_000);
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'hookpm-mkt-invalid-'));
  market = join(root, 'market');
  await writeFiles(market, {
    '.claude-plugin/marketplace.json': JSON.stringify(
      marketplaceCatalog('Market', [
        { name: 'greet', source: './plugins/greet' },
        { name: 'broken', source: './plugins/greet', version: 5 },
        { name: 'liar', source: './plugins/liar' },
        { name: 'missing', source: './plugins/missing' },
      ]),
    ),
    'plugins/greet/plugin.json': JSON.stringify({ name: 'greet', version: '1.0.0' }),
    'plugins/greet/hooks/hooks.json': STOP,
    'plugins/liar/plugin.json': JSON.stringify({ name: 'someone-else', version: '1.0.0' }),
    'plugins/liar/hooks/hooks.json': STOP,
  });
  paths = resolveStorePaths({ HOOKPM_HOME: join(root, 'home') });
});
afterEach(() => rm(root, { recursive: true, force: true }));

const ctx = (): OperationContext => ({ paths, offline: false, defaults: {} });

const WHY: Record<string, string> = {
  broken: 'plugins[1] ("broken"): version',
  liar: 'someone-else',
  missing: 'plugins[3] (missing)',
};

describe('a marketplace entry hookpm cannot use', () => {
  it('1: `registry add` keeps the valid entries and warns of each invalid one, naming it and why', async () => {
    const added = await addRegistry(ctx(), { name: 'mkt', location: market, cwd: root });
    expect(added.plugins).toBe(1);
    expect(added.warnings).toHaveLength(3);
    for (const [index, words] of Object.values(WHY).entries())
      expect(added.warnings[index]).toContain(words);
  });

  it.each(['broken@mkt', 'broken', 'liar@mkt', 'missing'])(
    '1: `install %s` is E_REGISTRY_SCHEMA naming the entry and why, not E_NOT_FOUND; the store is byte-identical',
    async (spec) => {
      await addRegistry(ctx(), { name: 'mkt', location: market, cwd: root });
      const before = await hashStore(paths);
      const error = await failure(
        installPlugins(
          { paths, defaults: {} },
          { specs: [spec], cwd: root, enable: 'yes', force: false, dryRun: false },
        ),
      );
      expect(error.code, error.message).toBe('E_REGISTRY_SCHEMA');
      const name = spec.split('@')[0] ?? '';
      expect(error.message).toContain(`${name}@mkt: the marketplace mkt lists ${name}`);
      expect(error.message).toContain(WHY[name]);
      expect(error.hint).toContain('hookpm registry update mkt');
      expect(await hashStore(paths)).toEqual(before);
    },
  );

  it('1: `info` of an invalid entry says why too', async () => {
    await addRegistry(ctx(), { name: 'mkt', location: market, cwd: root });
    const error = await failure(describePlugin(ctx(), 'broken@mkt'));
    expect(error.code).toBe('E_REGISTRY_SCHEMA');
    expect(error.message).toContain(WHY['broken']);
  });

  it("1: the CLI prints each warning of `registry add` on stderr, and `install` the entry's error; the store is byte-identical", async () => {
    const env = {
      ...(process.env as Record<string, string>),
      HOME: root,
      HOOKPM_HOME: join(root, 'home'),
    };
    const added = await runBin(['registry', 'add', 'mkt', market], { env, cwd: root });
    expect(added.code, added.stderr).toBe(0);
    const warnings = added.stderr.trim().split('\n');
    expect(warnings).toHaveLength(3);
    for (const line of warnings) expect(line).toMatch(/^hookpm: warning: registry mkt: /);
    const before = await hashStore(paths);
    const run = await runBin(['install', 'liar@mkt', '--yes'], { env, cwd: root });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      'error[E_REGISTRY_SCHEMA]: liar@mkt: the marketplace mkt lists liar',
    );
    expect(await hashStore(paths)).toEqual(before);
  });
});
