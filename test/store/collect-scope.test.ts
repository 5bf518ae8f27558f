/**
 * registry.md S41: a transaction's collection looks only in the plugin directories it touched,
 * unless something says an earlier command left trees behind (a dead transaction's mark, a
 * released or stale session pin, a temporary state file): then it walks every plugin directory.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, utimes, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collectGarbage } from '../../src/store/collect.js';
import { recordTrees, touchedDirs } from '../../src/store/named-trees.js';
import { markTransaction } from '../../src/store/collect-marker.js';
import { stagingRoot } from '../../src/store/paths.js';
import { PIN_STALE_MS, pinFile, removePin, writePin } from '../../src/store/session-pins.js';
import { PIN_VERSION, type SessionPin } from '../../src/store/session-pin-schema.js';
import { installedTree, makePlugin, makeState } from '../helpers/state-records.js';
import { useTempStore } from '../helpers/temp-home.js';

const store = useTempStore();
const SHA512 = `sha512-${Buffer.alloc(64, 0xab).toString('base64')}`;
const SESSION = 'c0ffee00-1111-4222-8333-444455556666';

/** An installed tree of `id` at `version`, holding one file. */
const tree = (id: string, version: string): Promise<string> =>
  installedTree(store.paths, id, version, SHA512);

/**
 * A store where `kept@x` is installed (1.0.0) and two trees no record names: `orphan@x` 1.0.0,
 * in a directory the transaction did not touch, and `touched@x` 0.9.0, in one it did.
 */
async function storeWithOrphans() {
  const kept = await tree('kept@x', '1.0.0');
  const orphan = await tree('orphan@x', '1.0.0');
  const dropped = await tree('touched@x', '0.9.0');
  const installed = await tree('touched@x', '1.0.0');
  const state = makeState([
    makePlugin('kept@x', { path: kept }),
    makePlugin('touched@x', { path: installed }),
  ]);
  return { kept, orphan, dropped, installed, state, visit: new Set([dirname(installed)]) };
}

function pinOf(root: string): SessionPin {
  return {
    version: PIN_VERSION,
    sessionId: SESSION,
    agent: 'claude-code',
    pinnedAt: new Date().toISOString(),
    snapshotId: 'snapshot',
    plugins: [{ id: 'orphan@x', version: '1.0.0', root, fingerprint: 'sha256-o', source: 'o' }],
    sources: [],
    diagnostics: [],
    stopContinuations: 0,
  };
}

describe('registry.md S41: collection after a transaction', () => {
  it('S41: looks only in the directories it is given when nothing says a command left trees behind', async () => {
    const world = await storeWithOrphans();
    const removed = await collectGarbage(store.paths, world.state, world.visit);
    expect(removed).toEqual([world.dropped]);
    expect(existsSync(world.orphan)).toBe(true);
    expect(existsSync(world.installed)).toBe(true);
    // Without a scope (uninstall, rollback, doctor --fix), every directory is walked.
    expect(await collectGarbage(store.paths, world.state)).toEqual([world.orphan]);
    expect(existsSync(dirname(world.orphan))).toBe(false);
  });

  it('S41: the mark of a transaction whose process died makes it walk every directory, and is removed', async () => {
    const world = await storeWithOrphans();
    const dead = spawnSync('true').pid!;
    const mark = join(stagingRoot(store.paths), `stage-${dead}-commit-x1`);
    await mkdir(stagingRoot(store.paths), { recursive: true });
    await writeFile(mark, '');
    const removed = await collectGarbage(store.paths, world.state, world.visit);
    expect(removed.sort()).toEqual([mark, world.dropped, world.orphan].sort());
    expect(await readdir(stagingRoot(store.paths))).toEqual([]);
  });

  it("S41: a live transaction's own mark is spared and changes nothing; its removal leaves staging empty", async () => {
    const world = await storeWithOrphans();
    const unmark = await markTransaction(store.paths);
    const marks = await readdir(stagingRoot(store.paths));
    expect(marks).toEqual([expect.stringMatching(new RegExp(`^stage-${process.pid}-commit-`))]);
    expect(await collectGarbage(store.paths, world.state, world.visit)).toEqual([world.dropped]);
    expect(await readdir(stagingRoot(store.paths))).toEqual(marks);
    unmark();
    expect(await readdir(stagingRoot(store.paths))).toEqual([]);
  });

  it('S41: a pin released at SessionEnd marks its trees for the next collection', async () => {
    const world = await storeWithOrphans();
    await writePin(store.paths, pinOf(world.orphan));
    // A live pin keeps the tree it runs, even in a whole walk.
    expect(await collectGarbage(store.paths, world.state)).toEqual([world.dropped]);
    await removePin(store.paths, SESSION);
    const removed = await collectGarbage(store.paths, world.state, world.visit);
    expect(removed).toContain(world.orphan);
    expect(existsSync(world.orphan)).toBe(false);
    expect(await readdir(stagingRoot(store.paths))).toEqual([]);
  });

  it('S41: a pin replaced by a new one for its session marks the trees the old one ran', async () => {
    const world = await storeWithOrphans();
    await writePin(store.paths, pinOf(world.orphan));
    await writePin(store.paths, pinOf(world.kept));
    const removed = await collectGarbage(store.paths, world.state, world.visit);
    expect(removed).toContain(world.orphan);
    expect(existsSync(world.kept)).toBe(true);
  });

  it('S41: a pin gone stale makes it walk every directory', async () => {
    const world = await storeWithOrphans();
    await writePin(store.paths, pinOf(world.orphan));
    expect(await collectGarbage(store.paths, world.state, world.visit)).toEqual([world.dropped]);
    const old = new Date(Date.now() - PIN_STALE_MS - 60_000);
    for (const name of await readdir(dirname(pinFile(store.paths, SESSION))))
      await utimes(join(dirname(pinFile(store.paths, SESSION)), name), old, old);
    expect(await collectGarbage(store.paths, world.state, world.visit)).toEqual([world.orphan]);
  });

  it('S41: a temporary state file of an interrupted write makes it walk every directory', async () => {
    const world = await storeWithOrphans();
    const temp = join(store.paths.data, '.state.json.tmp-123-abcdef');
    await writeFile(temp, '{"half');
    const removed = await collectGarbage(store.paths, world.state, world.visit);
    expect(removed.sort()).toEqual([world.dropped, world.orphan, temp].sort());
  });

  it('S41: the touched directories are those of every tree a record named before and not after, or after and not before', async () => {
    const world = await storeWithOrphans();
    const before = recordTrees(world.state);
    const after = makeState([makePlugin('touched@x', { path: world.dropped })]);
    after.projects = {
      '/home/dev/app': {
        plugins: { 'kept@x': makePlugin('kept@x', { path: world.kept }) },
      },
    } as unknown as NonNullable<typeof after.projects>;
    const dirs = touchedDirs(before, recordTrees(after));
    // kept@x left the user's records and joined a project's: its directory counts as touched.
    expect([...dirs].sort()).toEqual([dirname(world.kept), dirname(world.installed)].sort());
    expect(touchedDirs(before, recordTrees(world.state))).toEqual(new Set());
  });

  it('S41, D4: a record whose path is written in another form (a doubled or trailing slash) still keeps its tree', async () => {
    const world = await storeWithOrphans();
    const odd = makeState([
      makePlugin('kept@x', { path: world.kept.replace(/\/([^/]+)$/, '//$1/') }),
      makePlugin('touched@x', { path: `${world.installed}/.` }),
    ]);
    const removed = await collectGarbage(store.paths, odd);
    expect(removed.sort()).toEqual([world.dropped, world.orphan].sort());
    expect(existsSync(world.kept)).toBe(true);
    expect(existsSync(world.installed)).toBe(true);
  });

  it('S41: a record naming a tree outside the store never makes its directory one collection lists', async () => {
    const world = await storeWithOrphans();
    const outside = join(store.paths.data, '..', 'elsewhere');
    await mkdir(join(outside, 'mine'), { recursive: true });
    await writeFile(join(outside, 'notes.txt'), 'keep me');
    const before = recordTrees(world.state);
    const edited = makeState([
      makePlugin('kept@x', { path: join(outside, 'mine') }),
      makePlugin('touched@x', { path: world.installed }),
    ]);
    const visit = touchedDirs(before, recordTrees(edited));
    expect(visit).toContain(outside);
    const removed = await collectGarbage(store.paths, edited, visit);
    // kept@x's old tree is no longer named, in a store directory the change touched.
    expect(removed).toEqual([world.kept]);
    expect(await readdir(outside)).toEqual(['mine', 'notes.txt']);
  });
});
