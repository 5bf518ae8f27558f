import { chmod, mkdir, readFile, readdir, rename, stat, utimes, writeFile } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { join, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collectGarbage } from '../../src/store/collect.js';
import { createStagingDir, installDir, promoteTree } from '../../src/store/layout.js';
import { pluginsDir, stagingRoot, stateFile } from '../../src/store/paths.js';
import { writeState, readState } from '../../src/store/state/state.js';
import { makePlugin, makeState } from '../helpers/state-records.js';
import { useTempStore } from '../helpers/temp-home.js';

const SHA512_A = `sha512-${Buffer.alloc(64, 0xab).toString('base64')}`;
const SHA512_B = `sha512-${Buffer.alloc(64, 0xcd).toString('base64')}`;

const store = useTempStore();

/** A pid that belongs to no running process: one that has exited and been reaped. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
    encoding: 'utf8',
  });
  return Number(child.stdout);
}

/** Stages a small plugin tree and returns the staging directory. */
/** Renames a staging tree as if a process that has exited had made it. */
async function deadStaging(dir: string): Promise<string> {
  const deadPid = spawnSync('true').pid;
  const moved = join(stagingRoot(store.paths), `stage-${deadPid}-dead`);
  await rename(dir, moved);
  return moved;
}

async function stageTree(files: Record<string, string>): Promise<string> {
  const staging = await createStagingDir(store.paths);
  for (const [name, content] of Object.entries(files)) {
    await mkdir(join(staging, name, '..'), { recursive: true });
    await writeFile(join(staging, name), content);
  }
  return staging;
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

describe('layout', () => {
  it('D4: an installed tree lives at plugins/<sanitized id>/<version>-<first 12 hex of the sha512>', () => {
    const dir = installDir(store.paths, {
      id: 'guard@examples',
      version: '1.2.0',
      integrity: SHA512_A,
    });
    expect(dir.startsWith(pluginsDir(store.paths) + sep)).toBe(true);
    expect(dir.endsWith(`${sep}1.2.0-abababababab`)).toBe(true);
    expect(
      installDir(store.paths, { id: 'guard@examples', version: '1.2.0', integrity: SHA512_B }),
    ).not.toBe(dir);
  });

  it('D4: a version that is not a safe path segment is refused as a bug', () => {
    expect(() =>
      installDir(store.paths, { id: 'g@r', version: '../1.0.0', integrity: SHA512_A }),
    ).toThrow('Assertion failed');
  });

  it('A3: each staging directory is fresh, empty and under <data>/.staging', async () => {
    const a = await createStagingDir(store.paths);
    const b = await createStagingDir(store.paths);
    expect(a).not.toBe(b);
    for (const dir of [a, b]) {
      expect(dir.startsWith(stagingRoot(store.paths) + sep)).toBe(true);
      expect(await readdir(dir)).toEqual([]);
    }
  });

  it('D4: promoteTree moves the staged tree to its versioned directory', async () => {
    const staging = await stageTree({
      'plugin.json': '{"name":"guard"}',
      'hooks/hooks.json': '{}',
    });
    const target = installDir(store.paths, {
      id: 'guard@examples',
      version: '1.0.0',
      integrity: SHA512_A,
    });
    expect(await promoteTree(staging, target)).toBe(target);
    expect(await readFile(join(target, 'hooks/hooks.json'), 'utf8')).toBe('{}');
    expect(await exists(staging)).toBe(false);
  });

  it('D4: promoting a tree identical to the installed one keeps the installed tree', async () => {
    const target = installDir(store.paths, {
      id: 'guard@examples',
      version: '1.0.0',
      integrity: SHA512_A,
    });
    await promoteTree(await stageTree({ 'plugin.json': 'same' }), target);
    const before = (await stat(join(target, 'plugin.json'))).ino;
    const again = await stageTree({ 'plugin.json': 'same' });
    expect(await promoteTree(again, target)).toBe(target);
    expect((await stat(join(target, 'plugin.json'))).ino).toBe(before);
    expect(await exists(again)).toBe(false);
  });

  it('D4: an existing tree with other content (tampered) is never modified in place: the new tree goes beside it', async () => {
    const target = installDir(store.paths, {
      id: 'guard@examples',
      version: '1.0.0',
      integrity: SHA512_A,
    });
    await promoteTree(await stageTree({ 'plugin.json': 'original' }), target);
    await writeFile(join(target, 'plugin.json'), 'tampered');
    const restored = await promoteTree(await stageTree({ 'plugin.json': 'original' }), target);
    expect(restored).toBe(`${target}-r2`);
    expect(await readFile(join(target, 'plugin.json'), 'utf8')).toBe('tampered');
    expect(await readFile(join(restored, 'plugin.json'), 'utf8')).toBe('original');
  });

  it('D4: a difference in permission bits alone counts as other content', async () => {
    const target = installDir(store.paths, {
      id: 'guard@examples',
      version: '1.0.0',
      integrity: SHA512_A,
    });
    await promoteTree(await stageTree({ 'run.sh': 'echo' }), target);
    const staging = await stageTree({ 'run.sh': 'echo' });
    await chmod(join(staging, 'run.sh'), 0o755);
    expect(await promoteTree(staging, target)).toBe(`${target}-r2`);
  });
});

describe('collectGarbage', () => {
  it('D4: removes staging leftovers, unreferenced trees, empty plugin directories and state temp files; keeps every referenced tree', async () => {
    const active = installDir(store.paths, {
      id: 'guard@examples',
      version: '1.0.0',
      integrity: SHA512_A,
    });
    const pending = installDir(store.paths, {
      id: 'guard@examples',
      version: '1.1.0',
      integrity: SHA512_B,
    });
    const orphan = installDir(store.paths, {
      id: 'guard@examples',
      version: '0.9.0',
      integrity: SHA512_B,
    });
    const gone = installDir(store.paths, {
      id: 'removed@examples',
      version: '2.0.0',
      integrity: SHA512_A,
    });
    for (const target of [active, pending, orphan, gone])
      await promoteTree(await stageTree({ 'plugin.json': target }), target);
    const leftover = await deadStaging(await stageTree({ 'half.json': '{' }));
    const state = makeState([
      makePlugin('guard@examples', {
        path: active,
        pending: {
          version: '1.1.0',
          path: pending,
          integrity: SHA512_B,
          fingerprint: 'f',
          surfaceHash: 's',
          events: [],
          source: 'guard',
        },
      }),
    ]);
    await writeState(store.paths, state);
    const temp = join(store.paths.data, '.state.json.tmp-123-abcdef');
    await writeFile(temp, '{"half');
    const removed = await collectGarbage(store.paths, await readState(store.paths));
    expect(removed.sort()).toEqual([leftover, orphan, gone, temp].sort());
    expect(await exists(active)).toBe(true);
    expect(await exists(pending)).toBe(true);
    expect(await exists(orphan)).toBe(false);
    expect(await exists(join(gone, '..'))).toBe(false);
    expect(await readdir(stagingRoot(store.paths))).toEqual([]);
    expect(await readState(store.paths)).toEqual(state);
    expect((await readdir(store.paths.data)).sort()).toEqual(['.staging', 'plugins', 'state.json']);
  });

  it('D3, D4: removes lock debris of dead or long-gone processes, never that of a live one', async () => {
    await mkdir(store.paths.data, { recursive: true });
    const record = (pid: number, token: string): string =>
      JSON.stringify({ pid, hostname: hostname(), startedAt: '2026-11-30T00:00:00Z', token });
    const aged = join(store.paths.data, '.lock.takeover-0123456789abcdef');
    await writeFile(aged, record(process.pid, '0123456789abcdef'));
    const old = new Date(Date.now() - 120_000);
    await utimes(aged, old, old);
    const dead = join(store.paths.data, '.lock.1111111111111111.tmp');
    await writeFile(dead, record(deadPid(), '1111111111111111'));
    const live = join(store.paths.data, '.lock.fedcba9876543210.tmp');
    await writeFile(live, record(process.pid, 'fedcba9876543210'));
    const removed = await collectGarbage(store.paths, makeState([]));
    expect(removed.sort()).toEqual([aged, dead].sort());
    expect(await readdir(store.paths.data)).toEqual(['.lock.fedcba9876543210.tmp']);
  });

  it('D4: leaves the state file, the lock and plugin data alone, and is a no-op on an empty store', async () => {
    expect(await collectGarbage(store.paths, makeState([]))).toEqual([]);
    await writeState(store.paths, makeState([]));
    await mkdir(join(store.paths.data, 'plugin-data', 'x-000000000000'), { recursive: true });
    await writeFile(join(store.paths.data, '.lock'), '{}');
    expect(await collectGarbage(store.paths, makeState([]))).toEqual([]);
    expect((await readdir(store.paths.data)).sort()).toEqual([
      '.lock',
      'plugin-data',
      'state.json',
    ]);
    expect(JSON.parse(await readFile(stateFile(store.paths), 'utf8'))).toMatchObject({
      version: 1,
    });
  });

  it('D4: a staging tree that a live process is still filling is not collected', async () => {
    const live = await stageTree({ 'plugin.json': '{}' });
    const dead = await deadStaging(await stageTree({ 'plugin.json': '{}' }));
    const removed = await collectGarbage(store.paths, await readState(store.paths));
    expect(removed).toEqual([dead]);
    expect(await exists(live)).toBe(true);
  });
});
