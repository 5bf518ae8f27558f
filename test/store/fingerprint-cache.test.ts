import {
  chmod,
  mkdir,
  readFile,
  rename,
  rm,
  stat,
  symlink,
  utimes,
  writeFile,
} from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/json/canonical-json.js';
import { fnv1a } from '../../src/text/fnv1a.js';
import { scanTreesCached, type ScanOptions } from '../../src/store/fingerprint-cache.js';
import { fingerprintShardFile } from '../../src/store/fingerprint-shards.js';
import { fingerprintTree } from '../../src/store/fingerprint.js';
import type { StorePaths } from '../../src/store/store-paths.js';
import { tempDir, writeTree } from './plugin-tree.js';

let base: string;
let cleanup: () => Promise<void>;
let paths: StorePaths;
let root: string;

/**
 * Files written by a test are seconds younger than the racy window (RACY_MS), so a scan with the
 * real clock caches none of them; `later` scans as if 10 s had passed since they were written.
 */
const later = { now: () => Date.now() + 10_000 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeEach(async () => {
  ({ dir: base, cleanup } = await tempDir('hookpm-fingerprint-cache-'));
  paths = { config: join(base, 'config'), data: join(base, 'data'), cache: join(base, 'cache') };
  root = join(base, 'tree');
  await writeTree(root, {
    '.claude-plugin/plugin.json': '{"name":"p"}',
    'hooks/hooks.json': '{"hooks":{}}',
    'scripts/guard.sh': '#!/bin/sh\nexit 0\n',
    'scripts/link': { link: '../hooks/hooks.json' },
  });
  await chmod(join(root, 'scripts/guard.sh'), 0o755);
});
afterEach(() => cleanup());

/** Each root's fingerprint through the cache (null: missing), as the tamper check reads it. */
const fingerprintsCached = async (
  roots: string[],
  options: ScanOptions,
): Promise<Map<string, string | null>> =>
  new Map(
    [...(await scanTreesCached(paths, roots, options))].map(([r, scan]) => [
      r,
      scan?.fingerprint ?? null,
    ]),
  );

const cached = async (options = later) => (await fingerprintsCached([root], options)).get(root);

/** Waits out the file-system clock's tick, so that the next write moves ctime. */
const nextTick = () => sleep(50);

describe('scanTreesCached: fingerprints', () => {
  it('Q6: gives exactly the fingerprint of fingerprintTree, from a cold and from a warm cache', async () => {
    const expected = await fingerprintTree(root);
    expect(await cached()).toBe(expected);
    expect(await readFile(fingerprintShardFile(paths, root), 'utf8')).toContain('hooks/hooks.json');
    expect(await cached()).toBe(expected);
  });

  it('Q6: a same-size rewrite whose mtime is set back is still seen, by its ctime', async () => {
    const file = join(root, 'scripts/guard.sh');
    // Whole seconds, so that setting the times back restores them exactly.
    const then = new Date(1_700_000_000_000);
    await utimes(file, then, then);
    const before = await cached();
    const { size } = await stat(file);
    await nextTick();
    await writeFile(file, '#!/bin/sh\nexit 1\n');
    await utimes(file, then, then);
    const after = await stat(file);
    expect([after.size, after.mtimeMs]).toEqual([size, then.getTime()]);
    const found = await cached();
    expect(found).not.toBe(before);
    expect(found).toBe(await fingerprintTree(root));
  });

  it('Q6: an added file, a removed file, a chmod and a retargeted symlink are each seen', async () => {
    const changes: Array<() => Promise<void>> = [
      () => writeFile(join(root, 'hooks/extra.json'), '{}'),
      () => rm(join(root, 'hooks/extra.json')).then(() => rm(join(root, 'scripts/guard.sh'))),
      () => chmod(join(root, 'hooks/hooks.json'), 0o600),
      () =>
        rm(join(root, 'scripts/link')).then(() =>
          symlink('../.claude-plugin/plugin.json', join(root, 'scripts/link')),
        ),
    ];
    let previous = await cached();
    for (const change of changes) {
      await nextTick();
      await change();
      const found = await cached();
      expect(found).not.toBe(previous);
      expect(found).toBe(await fingerprintTree(root));
      previous = found;
    }
  });

  it('S30, Q6: with directory stats cached, a file created, removed or renamed in a subdirectory, and a new empty directory, are each seen', async () => {
    const scan = async () => (await scanTreesCached(paths, [root], later)).get(root)!;
    const first = await scan();
    await scan();
    // The shard holds the tree's directory stats, so a scan may skip reading the directories.
    const shard = (await readFile(fingerprintShardFile(paths, root), 'utf8')).split('\n')[1]!;
    const entry = (JSON.parse(shard) as Record<string, unknown[]>)[root]!;
    expect(Object.keys(entry[2] as object).sort()).toEqual([
      '',
      '.claude-plugin',
      'hooks',
      'scripts',
    ]);
    const changes: Array<() => Promise<void>> = [
      () => writeFile(join(root, 'scripts/extra.sh'), '#!/bin/sh\n'),
      () => rename(join(root, 'scripts/extra.sh'), join(root, 'hooks/extra.sh')),
      () => rm(join(root, 'hooks/extra.sh')),
      () => mkdir(join(root, 'scripts/empty')),
    ];
    let previous = first;
    for (const change of changes) {
      await nextTick();
      await change();
      const found = await scan();
      expect(found).not.toEqual(previous);
      expect(found?.fingerprint).toBe(await fingerprintTree(root));
      // Seen again from the cache, unchanged.
      expect(await scan()).toEqual(found);
      previous = found;
    }
    expect(previous?.layout).toBe(first?.layout.replace(']', ',"scripts/empty"]'));
  });

  it('Q6: a cache hit trusts what was cached with that stat and reads no file (forging shows it)', async () => {
    const honest = (await cached())!;
    const file = fingerprintShardFile(paths, root);
    const body = (await readFile(file, 'utf8')).split('\n')[1]!;
    const forge = (forged: string) =>
      writeFile(file, `${fnv1a(forged)} hookpm-fingerprints/3\n${forged}`);
    // The tree's fingerprint is kept whole while every file hits...
    await forge(body.replace(honest, 'sha256-forged'));
    expect(await cached()).toBe('sha256-forged');
    // ...and without it, the file hashes are taken as cached.
    await forge(
      body
        .replace(JSON.stringify(honest), 'null')
        .replace(sha256Hex('{"hooks":{}}'), sha256Hex('forged')),
    );
    const fromHashes = await cached();
    expect(fromHashes).not.toBe(honest);
    // Any change to the file's stat puts its content back in charge.
    await nextTick();
    await chmod(join(root, 'hooks/hooks.json'), 0o644);
    expect(await cached()).toBe(honest);
  });

  it('Q6: the cache is written once and then left alone while nothing changes', async () => {
    await cached();
    const file = fingerprintShardFile(paths, root);
    const first = { text: await readFile(file, 'utf8'), mtimeMs: (await stat(file)).mtimeMs };
    await nextTick();
    await cached();
    await cached();
    expect({ text: await readFile(file, 'utf8'), mtimeMs: (await stat(file)).mtimeMs }).toEqual(
      first,
    );
  });

  it('Q6: files changed within the racy window are hashed every time and never cached', async () => {
    const expected = await fingerprintTree(root);
    expect(await cached({ now: Date.now })).toBe(expected);
    await expect(stat(fingerprintShardFile(paths, root))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await cached({ now: Date.now })).toBe(expected);
  });

  it('Q6: a damaged, foreign or unwritable cache is ignored, never an error', async () => {
    const expected = await fingerprintTree(root);
    const file = fingerprintShardFile(paths, root);
    await cached();
    const text = await readFile(file, 'utf8');
    for (const damaged of [
      'not json',
      text.replace('hooks/hooks.json', 'hooks/hooks.jsom'),
      text.replace('hookpm-fingerprints/3', 'hookpm-fingerprints/9'),
      `${fnv1a('[1]')} hookpm-fingerprints/3\n[1]`,
      `${fnv1a('{"x":[1,{"a":"b"}]}')} hookpm-fingerprints/3\n{"x":[1,{"a":"b"}]}`,
    ]) {
      await writeFile(file, damaged);
      expect(await cached()).toBe(expected);
    }
    await rm(paths.cache, { recursive: true });
    await writeFile(paths.cache, 'a file where the cache directory should be');
    expect(await cached()).toBe(expected);
  });

  it('Q6, X10: a missing tree is null; a check reads and writes its own shard only, which a gone tree leaves', async () => {
    // A tree in another shard than `root`'s (one in 256 shares it).
    let n = 0;
    while (
      fingerprintShardFile(paths, join(base, `other${n}`)) === fingerprintShardFile(paths, root)
    )
      n += 1;
    const other = join(base, `other${n}`);
    await writeTree(other, { 'plugin.json': '{}' });
    const both = await fingerprintsCached([root, other, join(base, 'none')], later);
    expect([...both.values()]).toEqual([
      await fingerprintTree(root),
      await fingerprintTree(other),
      null,
    ]);
    const otherShard = fingerprintShardFile(paths, other);
    expect(otherShard).not.toBe(fingerprintShardFile(paths, root));
    // A check of one tree reads and writes its own shard only.
    const before = await stat(otherShard);
    await nextTick();
    await writeFile(join(root, 'new.txt'), 'x');
    await fingerprintsCached([root], later);
    expect((await stat(otherShard)).mtimeMs).toBe(before.mtimeMs);
    expect(await readFile(fingerprintShardFile(paths, root), 'utf8')).not.toContain(other);
    await rm(other, { recursive: true });
    expect((await fingerprintsCached([other], later)).get(other)).toBeNull();
    expect(await readFile(otherShard, 'utf8')).not.toContain(other);
  });

  it('Q6: a root that is a symbolic link to an identical copy, or held in a directory that is one, is linked, cold or warm', async () => {
    const expected = await fingerprintTree(root);
    expect(await cached()).toBe(expected);
    const linked = { fingerprint: null, linked: true };
    const copy = join(base, 'copy');
    await rename(root, copy);
    await symlink(copy, root);
    expect((await scanTreesCached(paths, [root], later)).get(root)).toEqual(linked);
    expect((await scanTreesCached(paths, [root], later)).get(root)).toEqual(linked);
    expect(await fingerprintTree(copy)).toBe(expected);
    // `<plugins>/<id>` a link to a directory outside, holding the version directory.
    const outside = join(base, 'outside');
    await mkdir(outside);
    await rename(copy, join(outside, '1.0.0'));
    await mkdir(join(base, 'plugins'));
    await symlink(outside, join(base, 'plugins', 'p'));
    const held = join(base, 'plugins', 'p', '1.0.0');
    expect((await scanTreesCached(paths, [held], later)).get(held)).toEqual(linked);
    // The same tree in real directories is the installed one again.
    await rm(join(base, 'plugins', 'p'));
    await rename(outside, join(base, 'plugins', 'p'));
    expect((await fingerprintsCached([held], later)).get(held)).toBe(expected);
  });

  it('Q6: the cached tree itself moved out, its holder made a link to it, stands while its files do; a change finds the link', async () => {
    await mkdir(join(base, 'plugins', 'p'), { recursive: true });
    const held = join(base, 'plugins', 'p', '1.0.0');
    await rename(root, held);
    const expected = await fingerprintTree(held);
    expect((await fingerprintsCached([held], later)).get(held)).toBe(expected);
    const outside = join(base, 'outside');
    await rename(join(base, 'plugins', 'p'), outside);
    await symlink(outside, join(base, 'plugins', 'p'));
    // The very files installed (their inodes, their stats): the cache vouches for them.
    expect((await fingerprintsCached([held], later)).get(held)).toBe(expected);
    await writeFile(join(held, 'hooks', 'hooks.json'), '{"hooks":{}}');
    expect((await scanTreesCached(paths, [held], later)).get(held)).toEqual({
      fingerprint: null,
      linked: true,
    });
  });

  it("Q6: scanTreesCached gives the tree's directories too, which the fingerprint leaves out", async () => {
    const before = (await scanTreesCached(paths, [root], later)).get(root)!;
    expect(JSON.parse(before.layout)).toEqual(['.claude-plugin', 'hooks', 'scripts']);
    await writeTree(root, { 'empty/.keep': '' });
    await rm(join(root, 'empty/.keep'));
    const after = (await scanTreesCached(paths, [root], later)).get(root)!;
    expect(after.fingerprint).toBe(before.fingerprint);
    expect(after.layout).not.toBe(before.layout);
  });

  it('Q6: a tree holding a file its installed list leaves out is not hashed, and its cache entry is kept', async () => {
    const installed = await cached();
    const shard = await readFile(fingerprintShardFile(paths, root), 'utf8');
    const list = new Set(['.claude-plugin/plugin.json', 'hooks/hooks.json', 'scripts/guard.sh']);
    list.add('scripts/link');
    await writeFile(join(root, 'scripts/run.log'), 'appended at every event\n');
    const asked: string[] = [];
    const listed = (at: string): ReadonlySet<string> => (asked.push(at), list);
    const scan = (await scanTreesCached(paths, [root], { ...later, listed })).get(root)!;
    expect(scan).toEqual({ fingerprint: null, layout: '[".claude-plugin","hooks","scripts"]' });
    expect(asked).toEqual([root]);
    expect(await readFile(fingerprintShardFile(paths, root), 'utf8')).toBe(shard);
    // Without the list, the same tree is hashed whole, the created file in it.
    expect(await cached()).not.toBe(installed);
    expect(await cached()).toBe(await fingerprintTree(root));
  });

  it('Q6: the installed list is asked for only of a tree that must be walked', async () => {
    await cached();
    const asked: string[] = [];
    const listed = (at: string): null => (asked.push(at), null);
    const scan = (await scanTreesCached(paths, [root], { ...later, listed })).get(root)!;
    expect(scan.fingerprint).toBe(await fingerprintTree(root));
    expect(asked).toEqual([]);
  });
});
