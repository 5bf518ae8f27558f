import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { syncTree } from '../../src/io/sync-tree.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hookpm-sync-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('syncTree', () => {
  it('D4: flushes every file and directory of a nested tree, leaving the content as it was', async () => {
    await mkdir(join(dir, 'a', 'b'), { recursive: true });
    await writeFile(join(dir, 'a', 'b', 'c.json'), '{"x":1}');
    await writeFile(join(dir, 'top.txt'), 'top');
    await symlink('top.txt', join(dir, 'link'));
    await expect(syncTree(dir)).resolves.toBeUndefined();
    expect(await readFile(join(dir, 'a', 'b', 'c.json'), 'utf8')).toBe('{"x":1}');
  });

  it('D4: a tree that is not there is an error, never a silent success', async () => {
    await expect(syncTree(join(dir, 'missing'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
