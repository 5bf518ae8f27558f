/**
 * End to end through the built binary: an uninstall killed (SIGKILL) after it wrote the state and
 * before it deleted the plugin's data directory (plugins.md V3). Its transaction's mark lists the
 * data directories it deletes (registry.md S41), so the next command that holds the lock and
 * collects leftovers (D4) deletes them, and the trees the uninstall had not collected yet.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { markedDataIds } from '../../src/store/collect-marker.js';
import { resolveStorePaths } from '../../src/store/paths.js';
import { pluginDataDir } from '../../src/store/plugin-dirs.js';
import { useBinWorkspace } from '../helpers/bin-workspace.js';
import { killAfterStateWrite } from '../helpers/kill-after-state-write.js';
import { hooksDoc, writeTree } from '../store/plugin-tree.js';

const ws = useBinWorkspace('e2e-uninstall-killed');

/** A fresh store with `big` and `small` installed from folders, and a file in big's data. */
async function storeWithData() {
  const home = ws.home;
  const env = ws.env();
  const store = env['HOOKPM_HOME']!;
  const plugins: Record<string, string> = {};
  for (const name of ['big', 'small']) {
    plugins[name] = join(home, 'src', name);
    await writeTree(plugins[name], {
      'plugin.json': { json: { name, version: '1.0.0' } },
      'hooks/hooks.json': hooksDoc('PreToolUse'),
    });
  }
  const hookpm = (...args: string[]) => ws.hookpm(args, { cwd: home });
  expect((await hookpm('install', '--yes', plugins.big!)).code).toBe(0);
  const data = pluginDataDir(resolveStorePaths({ HOOKPM_HOME: store }), 'big@local');
  await writeFile(join(data, 'secret-notes.txt'), 'what the plugin kept');
  const stateFile = join(store, 'data', 'state.json');
  const staging = join(store, 'data', '.staging');
  const tree = JSON.parse(await readFile(stateFile, 'utf8')).plugins['big@local'].path as string;
  return { env, store, plugins, hookpm, data, stateFile, staging, tree };
}

type World = Awaited<ReturnType<typeof storeWithData>>;

/**
 * What a kill right after the uninstall's state write leaves: the state without big@local, its
 * tree and data directory still there, and its mark (of a process now dead) listing the id.
 */
async function killedAfterStateWrite(world: World): Promise<string> {
  const state = JSON.parse(await readFile(world.stateFile, 'utf8'));
  delete state.plugins['big@local'];
  await writeFile(world.stateFile, `${JSON.stringify(state)}\n`);
  const mark = join(world.staging, `stage-${spawnSync('true').pid}-commit-x1`);
  await mkdir(world.staging, { recursive: true });
  await writeFile(mark, JSON.stringify(['big@local']));
  return mark;
}

describe('plugins.md V3, registry.md D4: an uninstall killed after its state write', () => {
  it('V3, D4, S41: the next command (an install of another plugin) deletes the data directory and collects the tree', async () => {
    const world = await storeWithData();
    await killedAfterStateWrite(world);
    const next = await world.hookpm('install', '--yes', world.plugins.small!);
    expect(next.code, next.stderr).toBe(0);
    expect(existsSync(world.data)).toBe(false);
    expect(existsSync(world.tree)).toBe(false);
    expect(await readdir(world.staging)).toEqual([]);
  });

  it('V3, D4: installing the same plugin again gives it a fresh data directory, not the old one', async () => {
    const world = await storeWithData();
    await killedAfterStateWrite(world);
    const again = await world.hookpm('install', '--yes', world.plugins.big!);
    expect(again.code, again.stderr).toBe(0);
    expect(await readdir(world.data)).toEqual([]);
    expect(await readdir(world.staging)).toEqual([]);
  });

  it('V3: a data directory another record still names is kept (the plugin is installed in a project)', async () => {
    const world = await storeWithData();
    const record = JSON.parse(await readFile(world.stateFile, 'utf8')).plugins['big@local'];
    await killedAfterStateWrite(world);
    // A project's record of big@local, as `install --project` would have written it.
    const state = JSON.parse(await readFile(world.stateFile, 'utf8'));
    state.projects = { [join(ws.dir, `project${ws.n}`)]: { plugins: { 'big@local': record } } };
    await writeFile(world.stateFile, `${JSON.stringify(state)}\n`);
    const next = await world.hookpm('install', '--yes', world.plugins.small!);
    expect(next.code, next.stderr).toBe(0);
    expect(await readFile(join(world.data, 'secret-notes.txt'), 'utf8')).toBe(
      'what the plugin kept',
    );
    expect(existsSync(world.tree)).toBe(true);
    expect(await readdir(world.staging)).toEqual([]);
  });

  it('V3, S41: a real SIGKILL right after the state write leaves a mark listing the id, and the next command deletes the data', async () => {
    const world = await storeWithData();
    await killAfterStateWrite(['uninstall', '--yes', 'big'], {
      env: world.env,
      cwd: ws.dir,
      stateFile: world.stateFile,
    });
    // Where the kill landed is up to the scheduler: when the data directory outlived it, the
    // mark must be there to say so.
    if (existsSync(world.data)) {
      const marks = (await readdir(world.staging)).map((name) => join(world.staging, name));
      expect(marks.flatMap(markedDataIds)).toEqual(['big@local']);
    }
    const next = await world.hookpm('install', '--yes', world.plugins.small!);
    expect(next.code, next.stderr).toBe(0);
    expect(existsSync(world.data)).toBe(false);
    expect(existsSync(world.tree)).toBe(false);
  });

  it('V3: an uninstall with --keep-data keeps the data, one without deletes it, and neither leaves a mark', async () => {
    const world = await storeWithData();
    const kept = await world.hookpm('uninstall', '--yes', '--keep-data', 'big');
    expect(kept.code, kept.stderr).toBe(0);
    expect(await readdir(world.staging)).toEqual([]);
    expect(existsSync(join(world.data, 'secret-notes.txt'))).toBe(true);
    expect((await world.hookpm('install', '--yes', world.plugins.big!)).code).toBe(0);
    const removed = await world.hookpm('uninstall', '--yes', 'big');
    expect(removed.code, removed.stderr).toBe(0);
    expect(existsSync(world.data)).toBe(false);
    expect(await readdir(world.staging)).toEqual([]);
  });
});

describe('plugins.md V3, registry.md S41: an uninstall killed before its state write', () => {
  it('V3: a later uninstall --keep-data keeps the data the killed one had listed in its mark', async () => {
    const world = await storeWithData();
    // The kill came after the mark, before the state write: big@local is still installed.
    const mark = join(world.staging, `stage-${spawnSync('true').pid}-commit-x1`);
    await mkdir(world.staging, { recursive: true });
    await writeFile(mark, JSON.stringify(['big@local']));
    const kept = await world.hookpm('uninstall', '--yes', '--keep-data', 'big');
    expect(kept.code, kept.stderr).toBe(0);
    expect(kept.stdout).toContain('data kept');
    expect(await readFile(join(world.data, 'secret-notes.txt'), 'utf8')).toBe(
      'what the plugin kept',
    );
    expect(await readdir(world.staging)).toEqual([]);
  });
});
