import { mkdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { enablePlugin } from '../../src/ops/plugins/enable.js';
import { installPlugins } from '../../src/ops/install/install.js';
import { loadSnapshot } from '../../src/ops/run/load-snapshot.js';
import { loadPluginSources } from '../../src/ops/steps/host/plugin-sources.js';
import { sha256Hex } from '../../src/json/canonical-json.js';
import type { OperationContext } from '../../src/ops/steps/context/operation-context.js';
import { pluginDocumentsCacheFile } from '../../src/store/paths.js';
import { pluginDataDir } from '../../src/store/plugin-dirs.js';
import { readState, writeState } from '../../src/store/state/state.js';
import { cmd, makeWorld, pluginFiles, type World } from './plugin-fixture.js';

let world: World;
let ctx: OperationContext;
beforeEach(async () => {
  world = await makeWorld();
  ctx = { paths: world.paths };
  await mkdir(join(world.dir, 'project', '.git'), { recursive: true });
  await mkdir(join(world.home, '.deepagents'), { recursive: true });
  const user = { hooks: { Stop: [{ hooks: [cmd('echo user')] }] } };
  await writeFile(join(world.home, '.deepagents', 'hooks.json'), JSON.stringify(user));
});
afterEach(() => world.cleanup());

async function install(
  name: string,
  enable: 'yes' | 'no',
  files = pluginFiles(name, '1.0.0', { Stop: [cmd(`echo ${name}`)] }),
) {
  const dir = await world.plugin(name, files);
  const [entry] = (
    await installPlugins(ctx, { specs: [dir], cwd: world.dir, enable, force: false, dryRun: false })
  ).installed;
  return entry!;
}

const snapshot = async () =>
  (
    await loadSnapshot({
      cwd: join(world.dir, 'project'),
      home: world.home,
      trustProject: false,
      store: world.paths,
    })
  ).snapshot;

describe('the engine plugin source', () => {
  it('S3: enabled plugins come after the user file, sorted by id, each with its plugin variables (section 3)', async () => {
    const zeta = await install('zeta', 'yes');
    const alpha = await install('alpha', 'yes');
    const snap = await snapshot();
    expect(snap.handlers.map((h) => [h.id, h.origin, h.plugin, h.command])).toEqual([
      ['Stop:0:0', 'user', null, 'echo user'],
      ['Stop:1:0', 'plugin', 'alpha@local', 'echo alpha'],
      ['Stop:2:0', 'plugin', 'zeta@local', 'echo zeta'],
    ]);
    expect(snap.handlers[1]!.pluginEnv).toEqual({
      CLAUDE_PLUGIN_ROOT: alpha.path,
      PLUGIN_ROOT: alpha.path,
      CLAUDE_PLUGIN_DATA: pluginDataDir(world.paths, 'alpha@local'),
      PLUGIN_DATA: pluginDataDir(world.paths, 'alpha@local'),
    });
    expect(snap.handlers[2]!.pluginEnv.CLAUDE_PLUGIN_ROOT).toBe(zeta.path);
    expect(snap.plugins).toEqual([
      { id: 'alpha@local', events: ['Stop'] },
      { id: 'zeta@local', events: ['Stop'] },
    ]);
  });

  it('Q4: an installed plugin that is not enabled, or whose consent does not hold its surfaceHash, contributes nothing', async () => {
    await install('off', 'no');
    await install('stale', 'yes');
    const state = await readState(world.paths);
    state.plugins['stale@local']!.consent!.surfaceHash = 'sha256-other';
    await writeState(world.paths, state);
    const snap = await snapshot();
    expect(snap.handlers.map((h) => h.origin)).toEqual(['user']);
    expect(snap.diagnostics).toEqual([]);
  });

  it('R1, R4: a snapshot taken after enabling picks the plugin up; the earlier one is unchanged, and the ids differ (R3)', async () => {
    await install('late', 'no');
    const before = await snapshot();
    await enablePlugin({ ...ctx, consent: 'yes' }, { name: 'late' });
    const after = await snapshot();
    expect(before.handlers).toHaveLength(1);
    expect(after.handlers.map((h) => h.plugin)).toEqual([null, 'late@local']);
    expect(after.id).not.toBe(before.id);
  });

  it('Q6, S6: a plugin whose files changed is left out with plugin_tampered naming it; the other plugins still load', async () => {
    const bad = await install('bad', 'yes');
    await install('good', 'yes');
    await writeFile(
      join(bad.path!, 'hooks', 'hooks.json'),
      JSON.stringify({ hooks: { Stop: [{ hooks: [cmd('curl evil')] }] } }),
    );
    const snap = await snapshot();
    expect(snap.handlers.map((h) => h.plugin)).toEqual([null, 'good@local']);
    expect(snap.diagnostics).toEqual([
      expect.objectContaining({
        code: 'plugin_tampered',
        origin: 'plugin',
        plugin: 'bad@local',
        message: expect.stringContaining('bad@local'),
      }),
    ]);
  });

  it('S6: a plugin whose installed tree is gone is left out with a diagnostic naming it', async () => {
    const gone = await install('gone', 'yes');
    const { rm } = await import('node:fs/promises');
    await rm(gone.path!, { recursive: true });
    const { sources, diagnostics } = await loadPluginSources(world.paths);
    expect(sources).toEqual([]);
    expect(diagnostics).toMatchObject([{ code: 'plugin_tampered', plugin: 'gone@local' }]);
  });

  it('R4: an unreadable state still loads the user hooks, with plugin_state_unreadable', async () => {
    await install('any', 'yes');
    await writeFile(join(world.paths.data, 'state.json'), 'not json');
    const snap = await snapshot();
    expect(snap.handlers.map((h) => h.origin)).toEqual(['user']);
    expect(snap.diagnostics).toMatchObject([
      { code: 'plugin_state_unreadable', severity: 'warning' },
    ]);
  });

  it('H4, S6: an inert entry of a plugin gives a diagnostic naming the plugin; its valid entries still run', async () => {
    const files = {
      'plugin.json': { json: { name: 'mixed', version: '1.0.0' } },
      'hooks/hooks.json': {
        json: {
          hooks: {
            Stop: [{ hooks: [cmd('echo ok')] }],
            OnSave: [{ hooks: [cmd('echo x')] }],
          },
        },
      },
    };
    await install('mixed', 'yes', files);
    const snap = await snapshot();
    expect(snap.handlers.map((h) => h.command)).toEqual(['echo user', 'echo ok']);
    expect(snap.diagnostics).toContainEqual(
      expect.objectContaining({ plugin: 'mixed@local', origin: 'plugin', code: 'invalid_config' }),
    );
  });
});

describe('the engine plugin source, cached (Q6)', () => {
  /** Installed files are younger than the racy window: load as if 10 s had passed. */
  const later = { now: () => Date.now() + 10_000 };
  const nextTick = () => new Promise((resolve) => setTimeout(resolve, 50));

  it('Q6: documents read once are used again, equal to a fresh read, and the cache is not rewritten', async () => {
    await install('alpha', 'yes');
    await install('beta', 'yes', {
      ...pluginFiles('beta', '1.0.0', { Stop: [cmd('echo beta')] }),
      'claude-plugin/plugin.json': { json: { name: 'x' } },
    });
    const fresh = await loadPluginSources(world.paths);
    expect(await loadPluginSources(world.paths, later)).toEqual(fresh);
    const file = pluginDocumentsCacheFile(world.paths);
    const written = { text: await readFile(file, 'utf8'), mtimeMs: (await stat(file)).mtimeMs };
    expect(written.text).toContain('echo beta');
    await nextTick();
    expect(await loadPluginSources(world.paths, later)).toEqual(fresh);
    expect({ text: await readFile(file, 'utf8'), mtimeMs: (await stat(file)).mtimeMs }).toEqual(
      written,
    );
    expect(fresh.diagnostics).toMatchObject([{ code: 'ignored_manifest', plugin: 'beta@local' }]);
  });

  it('Q6: a cache hit reads no document: forged cached documents (as only the user can write) are what loads', async () => {
    await install('alpha', 'yes');
    await loadPluginSources(world.paths, later);
    const file = pluginDocumentsCacheFile(world.paths);
    const [header, body] = (await readFile(file, 'utf8')).split('\n') as [string, string];
    const forged = body.replace('echo alpha', 'echo forged');
    const format = header.slice(header.indexOf(' ') + 1);
    await writeFile(file, `${sha256Hex(forged)} ${format}\n${forged}`);
    const { sources } = await loadPluginSources(world.paths, later);
    expect(JSON.stringify(sources)).toContain('echo forged');
  });

  it('Q6: a tree changed after its documents were cached is left out as plugin_tampered, even with a same-size edit and its mtime set back', async () => {
    const bad = await install('bad', 'yes');
    const file = join(bad.path!, 'hooks', 'hooks.json');
    // Whole seconds, so that setting the times back restores them exactly.
    const then = new Date(1_700_000_000_000);
    await utimes(file, then, then);
    expect((await loadPluginSources(world.paths, later)).sources).toHaveLength(1);
    const text = await readFile(file, 'utf8');
    await nextTick();
    await writeFile(file, text.replace('echo bad', 'curl bad'));
    await utimes(file, then, then);
    expect((await stat(file)).mtimeMs).toBe(then.getTime());
    const { sources, diagnostics } = await loadPluginSources(world.paths, later);
    expect(sources).toEqual([]);
    expect(diagnostics).toMatchObject([
      { code: 'plugin_tampered', plugin: 'bad@local', message: expect.stringContaining('changed') },
    ]);
  });

  it('Q6: a tree restored to its installed files loads again, with the documents it has now', async () => {
    const plugin = await install('back', 'yes');
    const file = join(plugin.path!, 'hooks', 'hooks.json');
    const text = await readFile(file, 'utf8');
    const before = await loadPluginSources(world.paths, later);
    await nextTick();
    await writeFile(file, text.replace('echo back', 'echo evil'));
    expect((await loadPluginSources(world.paths, later)).sources).toEqual([]);
    await nextTick();
    await writeFile(file, text);
    expect(await loadPluginSources(world.paths, later)).toEqual(before);
  });

  it('Q6: an empty directory, which the fingerprint leaves out, is still seen by what the plugin reports', async () => {
    const plugin = await install('dirs', 'yes');
    expect((await loadPluginSources(world.paths, later)).diagnostics).toEqual([]);
    await mkdir(join(plugin.path!, 'claude-plugin', 'plugin.json'), { recursive: true });
    expect((await loadPluginSources(world.paths, later)).diagnostics).toMatchObject([
      { code: 'ignored_manifest', plugin: 'dirs@local' },
    ]);
  });

  it('Q6: the documents of a plugin that no longer runs leave the cache', async () => {
    await install('alpha', 'yes');
    await install('beta', 'yes');
    await loadPluginSources(world.paths, later);
    const file = pluginDocumentsCacheFile(world.paths);
    expect(await readFile(file, 'utf8')).toContain('echo beta');
    const state = await readState(world.paths);
    state.plugins['beta@local']!.enabled = false;
    await writeState(world.paths, state);
    const { sources } = await loadPluginSources(world.paths, later);
    expect(sources.map((s) => s.plugin?.id)).toEqual(['alpha@local']);
    expect(await readFile(file, 'utf8')).not.toContain('echo beta');
  });

  it('Q6: a damaged documents cache, or one that cannot be written, is ignored', async () => {
    await install('alpha', 'yes');
    const fresh = await loadPluginSources(world.paths);
    await loadPluginSources(world.paths, later);
    const file = pluginDocumentsCacheFile(world.paths);
    const text = await readFile(file, 'utf8');
    for (const damaged of ['', 'x', text.replace('echo alpha', 'echo evil')]) {
      await writeFile(file, damaged);
      expect(await loadPluginSources(world.paths, later)).toEqual(fresh);
    }
    const { rm } = await import('node:fs/promises');
    await rm(world.paths.cache, { recursive: true });
    await writeFile(world.paths.cache, 'not a directory');
    expect(await loadPluginSources(world.paths, later)).toEqual(fresh);
  });
});
