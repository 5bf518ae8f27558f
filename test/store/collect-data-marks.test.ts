/**
 * plugins.md V3 with registry.md D4 and S41: a transaction's mark lists the plugin ids whose data
 * directories it deletes after its state write (an uninstall without `--keep-data`), so a command
 * killed between the write and the deletion leaves the deletion to the next collection, which
 * deletes each listed directory that no record (user-wide or of a project) names any more.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, symlink, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collectGarbage, collectMarkedData } from '../../src/store/collect.js';
import { markedDataIds, markTransaction } from '../../src/store/collect-marker.js';
import { ensureDataDir } from '../../src/store/data-dir.js';
import { pluginDataRoot, stagingRoot } from '../../src/store/paths.js';
import { installedTree, makePlugin, makeState } from '../helpers/state-records.js';
import { useTempStore } from '../helpers/temp-home.js';

const store = useTempStore();

/** A data directory of `id` holding a file, as a plugin would have written it. */
async function dataOf(id: string): Promise<string> {
  const dir = await ensureDataDir(store.paths, id);
  await writeFile(join(dir, 'notes.txt'), 'kept by the plugin');
  return dir;
}

/** The mark a transaction of a process now dead left, listing `ids`. */
async function deadMark(ids: readonly string[]): Promise<string> {
  const dead = spawnSync('true').pid!;
  const mark = join(stagingRoot(store.paths), `stage-${dead}-commit-x1`);
  await mkdir(stagingRoot(store.paths), { recursive: true });
  await writeFile(mark, ids.length === 0 ? '' : JSON.stringify(ids));
  return mark;
}

/**
 * A store where `gone@x` was uninstalled (no record, its tree still there: the kill came before
 * the collection) and `kept@x` is installed; both have data.
 */
async function afterKilledUninstall() {
  const kept = await installedTree(store.paths, 'kept@x', '1.0.0');
  const orphan = await installedTree(store.paths, 'gone@x', '1.0.0');
  const state = makeState([makePlugin('kept@x', { path: kept })]);
  return { state, orphan, gone: await dataOf('gone@x'), kept: await dataOf('kept@x') };
}

describe('plugins.md V3, registry.md D4: data directories a killed transaction meant to delete', () => {
  it('V3, S41: markTransaction writes the ids durably in its mark; an empty list writes an empty mark', async () => {
    const unmark = await markTransaction(store.paths, ['gone@x', 'a.b@y']);
    const [name] = await readdir(stagingRoot(store.paths));
    const mark = join(stagingRoot(store.paths), name!);
    expect(markedDataIds(mark)).toEqual(['gone@x', 'a.b@y']);
    unmark();
    const none = await markTransaction(store.paths);
    const [empty] = await readdir(stagingRoot(store.paths));
    expect(await readFile(join(stagingRoot(store.paths), empty!), 'utf8')).toBe('');
    none();
    expect(await readdir(stagingRoot(store.paths))).toEqual([]);
  });

  it("V3, D4, S41: a dead process's mark makes the next collection delete the data directories it lists that no record names, walk every directory, then go", async () => {
    const world = await afterKilledUninstall();
    const mark = await deadMark(['gone@x', 'kept@x']);
    const removed = await collectGarbage(store.paths, world.state, new Set());
    expect(removed.sort()).toEqual([mark, world.orphan, world.gone].sort());
    expect(existsSync(world.gone)).toBe(false);
    // kept@x is still installed: its data stays, whatever the mark lists.
    expect(await readFile(join(world.kept, 'notes.txt'), 'utf8')).toBe('kept by the plugin');
    expect(await readdir(stagingRoot(store.paths))).toEqual([]);
  });

  it('V3, D4: with the data root a symlink out of the store, nothing is deleted through it; the mark goes all the same', async () => {
    const world = await afterKilledUninstall();
    const outside = join(store.home.dir, 'outside-data');
    await rename(pluginDataRoot(store.paths), outside);
    await symlink(outside, pluginDataRoot(store.paths));
    const mark = await deadMark(['gone@x']);
    expect(await collectGarbage(store.paths, world.state)).toEqual([mark, world.orphan]);
    const gone = join(outside, basename(world.gone), 'notes.txt');
    expect(await readFile(gone, 'utf8')).toBe('kept by the plugin');
  });

  it("V3: a data directory a project's record still names is kept; the mark goes all the same", async () => {
    const world = await afterKilledUninstall();
    world.state.projects = {
      '/home/dev/app': { plugins: { 'gone@x': makePlugin('gone@x', { path: world.orphan }) } },
    } as unknown as NonNullable<typeof world.state.projects>;
    const mark = await deadMark(['gone@x']);
    expect(await collectGarbage(store.paths, world.state)).toEqual([mark]);
    expect(existsSync(join(world.gone, 'notes.txt'))).toBe(true);
    expect(existsSync(world.orphan)).toBe(true);
  });

  it('V3: an empty mark (an uninstall with --keep-data) deletes no data directory', async () => {
    const world = await afterKilledUninstall();
    const mark = await deadMark([]);
    const removed = await collectGarbage(store.paths, world.state);
    expect(removed.sort()).toEqual([mark, world.orphan].sort());
    expect(existsSync(join(world.gone, 'notes.txt'))).toBe(true);
  });

  it("S41: a live process's mark is spared: the data directories it lists stay until it removes them", async () => {
    const world = await afterKilledUninstall();
    const unmark = await markTransaction(store.paths, ['gone@x']);
    expect(await collectMarkedData(store.paths, world.state)).toEqual([]);
    expect(await collectGarbage(store.paths, world.state)).toEqual([world.orphan]);
    expect(existsSync(join(world.gone, 'notes.txt'))).toBe(true);
    unmark();
  });

  it('V3: before a transaction changes the state, the data directories dead marks list are deleted and the marks kept for its collection', async () => {
    const world = await afterKilledUninstall();
    const mark = await deadMark(['gone@x']);
    expect(await collectMarkedData(store.paths, world.state)).toEqual([world.gone]);
    expect(existsSync(world.gone)).toBe(false);
    expect(existsSync(mark)).toBe(true);
    // The transaction installs gone@x again: its collection keeps the fresh data and ends the mark.
    const fresh = await dataOf('gone@x');
    const again = makeState([
      makePlugin('kept@x', { path: world.state.plugins['kept@x']!.path }),
      makePlugin('gone@x', { path: world.orphan }),
    ]);
    expect(await collectGarbage(store.paths, again, new Set())).toEqual([mark]);
    expect(existsSync(join(fresh, 'notes.txt'))).toBe(true);
  });

  it('V3: the ids collectMarkedData kept because a record names them leave the mark, so a later --keep-data uninstall keeps their data', async () => {
    const world = await afterKilledUninstall();
    const mark = await deadMark(['gone@x', 'kept@x']);
    expect(await collectMarkedData(store.paths, world.state)).toEqual([world.gone]);
    expect(markedDataIds(mark)).toEqual([]);
    expect(existsSync(mark)).toBe(true);
    // kept@x uninstalled with --keep-data: its record is gone, its data stays.
    expect(await collectGarbage(store.paths, makeState([]))).toContain(mark);
    expect(await readFile(join(world.kept, 'notes.txt'), 'utf8')).toBe('kept by the plugin');
  });

  it('V3: a mark that is not a list of ids, or not a regular file, lists nothing', async () => {
    const mark = await deadMark([]);
    for (const text of ['{"gone@x":1}', '[1]', '["gone@x"', 'null']) {
      await writeFile(mark, text);
      expect(markedDataIds(mark)).toEqual([]);
    }
    spawnSync('mkfifo', [`${mark}-fifo`]);
    expect(markedDataIds(`${mark}-fifo`)).toEqual([]);
  });
});
