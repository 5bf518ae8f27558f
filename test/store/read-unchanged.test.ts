import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { scanTreesCached } from '../../src/store/fingerprint-cache.js';
import { readUnchanged } from '../../src/store/read-unchanged.js';
import type { StorePaths } from '../../src/store/store-paths.js';
import { tempDir, writeTree } from './plugin-tree.js';

let base: string;
let cleanup: () => Promise<void>;
let paths: StorePaths;
let root: string;
/** As in fingerprint-cache.test.ts: scan as if the test's files were 10 s old. */
const later = { now: () => Date.now() + 10_000 };
const nextTick = () => new Promise((resolve) => setTimeout(resolve, 50));

beforeEach(async () => {
  ({ dir: base, cleanup } = await tempDir('hookpm-read-unchanged-'));
  paths = { config: join(base, 'config'), data: join(base, 'data'), cache: join(base, 'cache') };
  root = join(base, 'tree');
  await writeTree(root, { 'plugin.json': '{"name":"p"}', 'hooks/hooks.json': '{"hooks":{}}' });
});
afterEach(() => cleanup());

const readWith = async (read: (root: string) => Promise<string>, options = later) =>
  (await readUnchanged(paths, [root], read, options)).get(root)!;

describe('readUnchanged', () => {
  it('Q6: a tree that held still gives the value with the scan of the tree it was read from', async () => {
    const scan = (await scanTreesCached(paths, [root], later)).get(root);
    const read = await readWith(async () => 'value');
    expect(read).toEqual({ value: 'value', scan });
  });

  it('Q6: a file written while the value was read gives no scan', async () => {
    await scanTreesCached(paths, [root], later);
    await nextTick();
    const read = await readWith(async (at) => {
      await writeFile(join(at, 'hooks/hooks.json'), '{"hooks":{"x":1}}');
      return 'value';
    });
    expect(read).toEqual({ value: 'value', scan: null });
  });

  it('Q6: a file added and removed again while the value was read gives no scan', async () => {
    await scanTreesCached(paths, [root], later);
    await nextTick();
    const read = await readWith(async (at) => {
      await writeFile(join(at, 'hooks/extra.json'), '{}');
      await rm(join(at, 'hooks/extra.json'));
      return 'value';
    });
    expect(read.scan).toBeNull();
  });

  it('Q6: no scan without a cached hash for every file, nor for a tree changed within the racy window', async () => {
    expect((await readWith(async () => 'value')).scan).toBeNull();
    await scanTreesCached(paths, [root], later);
    expect((await readWith(async () => 'value', { now: Date.now })).scan).toBeNull();
    expect((await readWith(async () => 'value')).scan).not.toBeNull();
  });

  it('Q6: a tree that cannot be walked gives no scan', async () => {
    await rm(root, { recursive: true });
    expect(await readWith(async () => 'value')).toEqual({ value: 'value', scan: null });
  });
});
