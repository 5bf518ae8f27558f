import { mkdir, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { disablePlugin } from '../../src/ops/plugins/disable.js';
import { enablePlugin } from '../../src/ops/plugins/enable.js';
import { installPlugins } from '../../src/ops/install/install.js';
import { listPlugins } from '../../src/ops/plugins/list.js';
import type { OperationContext } from '../../src/ops/steps/context/operation-context.js';
import type { ReviewReport } from '../../src/ops/steps/consent/report.js';
import { reviewPlugin } from '../../src/ops/review/review.js';
import { uninstallPlugins } from '../../src/ops/plugins/uninstall.js';
import { pluginDataDir } from '../../src/store/plugin-dirs.js';
import { readState, writeState } from '../../src/store/state/state.js';
import { hashStore } from '../helpers/store-snapshot.js';
import { cmd, makeWorld, pluginFiles, type World } from './plugin-fixture.js';
import { failure } from '../helpers/failure.js';

let world: World;
let ctx: OperationContext;
beforeEach(async () => {
  world = await makeWorld();
  ctx = { paths: world.paths };
});
afterEach(() => world.cleanup());

async function install(
  name: string,
  events: Record<string, unknown[]>,
  enable: 'yes' | 'no' = 'no',
  version = '1.0.0',
) {
  const dir = await world.plugin(name, pluginFiles(name, version, events));
  const [entry] = (
    await installPlugins(ctx, { specs: [dir], cwd: world.dir, enable, force: false, dryRun: false })
  ).installed;
  return { dir, entry: entry! };
}

describe('enable and disable', () => {
  it('Q4: enabling asks for consent to the current surface; yes records {surfaceHash, at, version} and creates the data dir (V3)', async () => {
    await install('guard', { Stop: [cmd('echo s')] });
    const asked: ReviewReport[] = [];
    const result = await enablePlugin(
      { ...ctx, confirm: async (r) => (asked.push(r), true), now: () => new Date(0) },
      { name: 'guard' },
    );
    expect(asked.map((r) => [r.id, r.consented])).toEqual([['guard@local', false]]);
    const record = (await readState(world.paths)).plugins['guard@local']!;
    expect(record.consent).toEqual({
      surfaceHash: record.surfaceHash,
      at: '1970-01-01T00:00:00.000Z',
      version: '1.0.0',
    });
    expect(result).toMatchObject({
      id: 'guard@local',
      enabled: true,
      changed: true,
      dataDir: pluginDataDir(world.paths, 'guard@local'),
    });
    expect((await stat(result.dataDir)).isDirectory()).toBe(true);
  });

  it('Q4: without a TTY and without --yes, enable fails with E_CONSENT_REQUIRED and changes nothing', async () => {
    await install('guard', { Stop: [cmd('echo s')] });
    const before = await hashStore(world.paths);
    const error = await failure(() => enablePlugin(ctx, { name: 'guard' }));
    expect(error.code).toBe('E_CONSENT_REQUIRED');
    expect(error.hint).toContain('--yes');
    expect(await hashStore(world.paths)).toEqual(before);
  });

  it('Q4: declining is E_CANCELLED and changes nothing', async () => {
    await install('guard', { Stop: [cmd('echo s')] });
    const before = await hashStore(world.paths);
    expect(
      (await failure(() => enablePlugin({ ...ctx, confirm: async () => false }, { name: 'guard' })))
        .code,
    ).toBe('E_CANCELLED');
    expect(await hashStore(world.paths)).toEqual(before);
  });

  it('Q4: re-enabling a plugin whose consent holds its surface asks nothing', async () => {
    await install('guard', { Stop: [cmd('echo s')] }, 'yes');
    await disablePlugin(ctx, { name: 'guard' });
    const result = await enablePlugin(
      {
        ...ctx,
        confirm: async () => {
          throw new Error('asked');
        },
      },
      { name: 'guard@local' },
    );
    expect(result.changed).toBe(true);
  });

  it('V3: disable keeps the consent and the data directory', async () => {
    await install('guard', { Stop: [cmd('echo s')] }, 'yes');
    expect(await disablePlugin(ctx, { name: 'guard' })).toEqual({
      id: 'guard@local',
      enabled: false,
      changed: true,
    });
    const record = (await readState(world.paths)).plugins['guard@local']!;
    expect(record.enabled).toBe(false);
    expect(record.consent).not.toBeNull();
    expect((await stat(pluginDataDir(world.paths, 'guard@local'))).isDirectory()).toBe(true);
  });

  it('Q6: enabling a plugin whose installed files changed is refused with E_PLUGIN_TAMPERED and a --force hint', async () => {
    const { entry } = await install('guard', { Stop: [cmd('echo s')] });
    await writeFile(join(entry.path!, 'hooks', 'hooks.json'), '{"hooks": {}}');
    const error = await failure(() => enablePlugin({ ...ctx, consent: 'yes' }, { name: 'guard' }));
    expect(error.code).toBe('E_PLUGIN_TAMPERED');
    expect(error.hint).toContain('hookpm install --force');
  });

  it('Q6: a file the plugin created in its folder does not stop enable; one a handler names does', async () => {
    const { entry } = await install('guard', { Stop: [cmd('sh scripts/run.sh')] });
    await writeFile(join(entry.path!, 'notes.txt'), 'written by the plugin');
    expect((await enablePlugin({ ...ctx, consent: 'yes' }, { name: 'guard' })).enabled).toBe(true);
    await disablePlugin(ctx, { name: 'guard' });
    await mkdir(join(entry.path!, 'scripts'));
    await writeFile(join(entry.path!, 'scripts', 'run.sh'), 'echo evil');
    const error = await failure(() => enablePlugin({ ...ctx, consent: 'yes' }, { name: 'guard' }));
    expect(error.code).toBe('E_PLUGIN_TAMPERED');
    expect(error.message).toContain(
      'scripts/run.sh was created after install and a handler names scripts/run.sh',
    );
  });

  it('Q5: enabling a pending update shows the diff against the consented surface and makes it the active version', async () => {
    const { dir } = await install('guard', { Stop: [cmd('echo a')] }, 'yes');
    await writeFile(
      join(dir, 'hooks/hooks.json'),
      JSON.stringify({ hooks: { Stop: [{ hooks: [cmd('echo a'), cmd('echo b')] }] } }),
    );
    await writeFile(join(dir, 'plugin.json'), JSON.stringify({ name: 'guard', version: '2.0.0' }));
    await installPlugins(ctx, {
      specs: [dir],
      cwd: world.dir,
      enable: 'no',
      force: false,
      dryRun: false,
    });
    const review = await reviewPlugin(world.paths, { target: 'guard', cwd: world.dir });
    expect(review).toMatchObject({
      version: '2.0.0',
      consented: false,
      installed: { version: '1.0.0', pending: '2.0.0' },
    });
    expect(review.diff).toMatchObject({ added: [{ command: 'echo b' }], removed: [], changed: [] });
    const asked: ReviewReport[] = [];
    await enablePlugin({ ...ctx, confirm: async (r) => (asked.push(r), true) }, { name: 'guard' });
    expect(asked[0]!.diff!.added).toHaveLength(1);
    const record = (await readState(world.paths)).plugins['guard@local']!;
    expect(record).toMatchObject({ version: '2.0.0', pending: null, enabled: true });
    expect(record.consent!.surfaceHash).toBe(record.surfaceHash);
  });

  it('an unknown name is E_NOT_INSTALLED; a name in two registries is E_AMBIGUOUS', async () => {
    const { entry } = await install('guard', { Stop: [cmd('echo s')] });
    expect((await failure(() => disablePlugin(ctx, { name: 'nope' }))).code).toBe(
      'E_NOT_INSTALLED',
    );
    // N5: a URL typed where a name goes is quoted with its password hidden.
    const typed = await failure(() => disablePlugin(ctx, { name: 'https//bob:s3cret@host/x' }));
    expect([typed.code, typed.message]).toEqual([
      'E_NOT_INSTALLED',
      'no installed plugin is named "https//***@host/x"',
    ]);
    expect(JSON.stringify(typed.details)).not.toContain('s3cret');
    const state = await readState(world.paths);
    const local = state.plugins['guard@local']!;
    state.plugins['guard@examples'] = {
      ...local,
      id: 'guard@examples',
      registry: 'examples',
      path: entry.path!,
    };
    await writeState(world.paths, state);
    const error = await failure(() => disablePlugin(ctx, { name: 'guard' }));
    expect(error.code).toBe('E_AMBIGUOUS');
    expect(error.message).toContain('guard@examples, guard@local');
  });
});

describe('uninstall', () => {
  it('V3: removes the record, the installed tree and the data directory', async () => {
    const { entry } = await install('guard', { Stop: [cmd('echo s')] }, 'yes');
    const result = await uninstallPlugins(ctx, { names: ['guard'], keepData: false });
    expect(result).toEqual({
      uninstalled: [
        {
          id: 'guard@local',
          version: '1.0.0',
          keptData: false,
          trees: [entry.path],
          dataDir: pluginDataDir(world.paths, 'guard@local'),
          keptFor: [],
        },
      ],
      dryRun: false,
    });
    expect((await readState(world.paths)).plugins).toEqual({});
    await expect(stat(entry.path!)).rejects.toThrow();
    await expect(stat(pluginDataDir(world.paths, 'guard@local'))).rejects.toThrow();
  });

  it('V3: --keep-data keeps the data directory', async () => {
    await install('guard', { Stop: [cmd('echo s')] }, 'yes');
    await writeFile(join(pluginDataDir(world.paths, 'guard@local'), 'memo'), 'x');
    await uninstallPlugins(ctx, { names: ['guard@local'], keepData: true });
    expect((await stat(join(pluginDataDir(world.paths, 'guard@local'), 'memo'))).isFile()).toBe(
      true,
    );
  });

  it('one unknown name among several fails with E_NOT_INSTALLED and removes nothing', async () => {
    await install('guard', { Stop: [cmd('echo s')] }, 'yes');
    const before = await hashStore(world.paths);
    expect(
      (await failure(() => uninstallPlugins(ctx, { names: ['guard', 'nope'], keepData: false })))
        .code,
    ).toBe('E_NOT_INSTALLED');
    expect(await hashStore(world.paths)).toEqual(before);
  });
});

describe('list', () => {
  it('S30, S32, Q6: list --verify shows a tree changed, or holding a file removed, as tampered when the fingerprint cache holds its stats and directory stats', async () => {
    const a = await install('alpha', { Stop: [cmd('echo a')] });
    const b = await install('beta', { Stop: [cmd('echo b')] });
    // Older than the cache's racy window, so the scans below cache every stat and skip the walk.
    await new Promise((resolve) => setTimeout(resolve, 2_200));
    const tampered = async () =>
      Object.fromEntries(
        (await listPlugins(world.paths, undefined, { verify: true })).plugins.map((p) => [
          p.name,
          p.tampered,
        ]),
      );
    expect(await tampered()).toEqual({ alpha: false, beta: false });
    expect(await tampered()).toEqual({ alpha: false, beta: false });
    const state = await readState(world.paths);
    const hooks = join(state.plugins['alpha@local']!.path, 'hooks', 'hooks.json');
    await writeFile(hooks, `${JSON.stringify({ hooks: {} })}\n`);
    await rm(join(state.plugins['beta@local']!.path, 'hooks', 'hooks.json'));
    expect(await tampered()).toEqual({ alpha: true, beta: true });
    expect(await tampered()).toEqual({ alpha: true, beta: true });
    expect([a.entry.id, b.entry.id]).toEqual(['alpha@local', 'beta@local']);
  });

  it('cli.md list shape: plugins sorted by id with id, name, registry, version, enabled, events, source, integrity', async () => {
    const b = await install('beta', { Stop: [cmd('echo b')] }, 'yes');
    const a = await install('alpha', { PreToolUse: [cmd('echo a')], Stop: [cmd('echo a')] });
    const { plugins } = await listPlugins(world.paths);
    // The install time, as recorded; a fresh install's update time is the same.
    const state = await readState(world.paths);
    expect(Date.parse(state.plugins['alpha@local']?.installedAt ?? '')).not.toBeNaN();
    /** The row of a plugin installed from `p` (with the recorded times) in the list. */
    const row = (name: string, p: typeof a, enabled: boolean, events: string[]) => ({
      id: `${name}@local`,
      name,
      registry: 'local',
      version: '1.0.0',
      enabled,
      events,
      source: p.dir,
      integrity: p.entry.integrity,
      installedAt: state.plugins[`${name}@local`]?.installedAt,
      updatedAt: state.plugins[`${name}@local`]?.installedAt,
      active: enabled,
      pending: null,
      tampered: false,
      checkedAt: state.plugins[`${name}@local`]?.installedAt,
    });
    expect(plugins).toEqual([
      row('alpha', a, false, ['PreToolUse', 'Stop']),
      row('beta', b, true, ['Stop']),
    ]);
  });

  it('D6: list of a corrupt state fails with E_STATE_CORRUPT like every other command', async () => {
    await mkdir(world.paths.data, { recursive: true });
    for (const text of [
      '{',
      '{"version":1,"registries":{},"plugins":{"a@b":{"id":"a@b"}}}',
      '{"version":2,"registries":{},"plugins":{}}',
    ]) {
      await writeFile(join(world.paths.data, 'state.json'), text);
      expect((await failure(() => listPlugins(world.paths))).code).toBe('E_STATE_CORRUPT');
    }
  });
});

describe('review', () => {
  it('Q1-Q3: a directory review lists every declared entry (inert ones with their diagnostic), the events, the hash; diff null before consent', async () => {
    const dir = await world.plugin('mixed', {
      'plugin.json': { json: { name: 'mixed', version: '0.1.0', description: 'd' } },
      'hooks/hooks.json': {
        json: {
          hooks: {
            OnSave: [{ hooks: [cmd('echo c')] }],
            Stop: [{ hooks: [{ ...cmd('echo s'), timeout: 5 }] }],
          },
        },
      },
    });
    const review = await reviewPlugin(world.paths, { target: './src/mixed', cwd: world.dir });
    expect(review).toMatchObject({
      id: 'mixed@local',
      name: 'mixed',
      version: '0.1.0',
      description: 'd',
      source: dir,
      events: ['Stop'],
      consented: false,
      diff: null,
      ok: true,
      installed: null,
    });
    expect(review.hooks).toEqual([
      expect.objectContaining({
        event: 'OnSave',
        valid: false,
        diagnostic: expect.any(String),
      }),
      {
        event: 'Stop',
        matcher: null,
        if: null,
        type: 'command',
        command: 'echo s',
        argv: null,
        args: null,
        shell: null,
        onFailure: null,
        async: null,
        asyncRewake: null,
        rewakeMessage: null,
        rewakeSummary: null,
        timeout: 5,
        statusMessage: null,
        source: 'hooks/hooks.json',
        key: expect.stringMatching(/^[0-9a-f]{10}$/),
        off: false,
        valid: true,
        diagnostic: null,
      },
    ]);
    expect(review.surfaceHash).toMatch(/^sha256-/);
  });

  it('D15, bounded: a directory holding a file over the tree limit is E_ARCHIVE_TOO_LARGE, its files not read', async () => {
    const dir = await world.plugin('big', pluginFiles('big', '1.0.0', { Stop: [cmd('echo s')] }));
    // Sparse: 1 GiB named, nothing written; hashed, it would be read whole.
    await writeFile(join(dir, 'data.bin'), '');
    await truncate(join(dir, 'data.bin'), 1024 ** 3);
    const error = await failure(reviewPlugin(world.paths, { target: dir, cwd: world.dir }));
    expect(error).toMatchObject({ code: 'E_ARCHIVE_TOO_LARGE' });
    expect(error.message).toContain('data.bin');
  });

  it('Q3, Q5: reviewing a changed directory of an installed, consented plugin shows the diff against the consented surface', async () => {
    const { dir } = await install('guard', { Stop: [cmd('echo a'), cmd('echo gone')] }, 'yes');
    await writeFile(
      join(dir, 'hooks/hooks.json'),
      JSON.stringify({ hooks: { Stop: [{ hooks: [cmd('echo a'), { ...cmd('echo new') }] }] } }),
    );
    const review = await reviewPlugin(world.paths, { target: dir, cwd: world.dir });
    expect(review.consented).toBe(false);
    expect(review.diff).toMatchObject({
      added: [{ command: 'echo new' }],
      removed: [{ command: 'echo gone' }],
      changed: [],
    });
    const installed = await reviewPlugin(world.paths, { target: 'guard', cwd: world.dir });
    expect(installed).toMatchObject({
      consented: true,
      diff: { added: [], removed: [], changed: [] },
    });
  });

  it('Q6: reviewing an installed plugin whose files changed says so with plugin_tampered', async () => {
    const { entry } = await install('guard', { Stop: [cmd('echo s')] }, 'yes');
    expect(
      (await reviewPlugin(world.paths, { target: 'guard', cwd: world.dir })).diagnostics,
    ).toEqual([]);
    // A file the plugin created in its folder is not tampering.
    await writeFile(join(entry.path!, 'new.sh'), 'echo x');
    expect(
      (await reviewPlugin(world.paths, { target: 'guard', cwd: world.dir })).diagnostics,
    ).toEqual([]);
    await writeFile(join(entry.path!, 'hooks', 'hooks.json'), '{"hooks": {}}');
    const review = await reviewPlugin(world.paths, { target: 'guard', cwd: world.dir });
    expect(review.diagnostics[0]).toMatchObject({ severity: 'error', code: 'plugin_tampered' });
    expect(review.diagnostics[0]!.message).toContain('hookpm install --force');
  });

  it('P4: a directory with an invalid manifest is reviewed with ok: false and an error naming the file', async () => {
    await world.plugin('broken', { 'plugin.json': '{"name": }' });
    const review = await reviewPlugin(world.paths, { target: './src/broken', cwd: world.dir });
    expect(review.ok).toBe(false);
    expect(review.diagnostics).toContainEqual(
      expect.objectContaining({ severity: 'error', code: 'invalid_manifest', path: 'plugin.json' }),
    );
  });
});
