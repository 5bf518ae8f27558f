/**
 * measureTree, the check every marketplace tree passes before it is copied and hashed (registry
 * add, validate and install share it). Real temporary directories; the limits are passed in small
 * so each one is crossed with a few files.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { measureTree } from '../../src/store/tree-size.js';
import { TARBALL_LIMITS, TREE_LIMITS } from '../../src/store/tar/tarball-rules.js';
import { failure } from '../helpers/failure.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hookpm-tree-size-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const small = { ...TREE_LIMITS, maxEntries: 3, maxFileBytes: 10, maxTotalBytes: 25, maxDepth: 2 };

describe('measureTree', () => {
  it('a tree is bounded by 20,000 files, not by the 2,000 entries of an uploaded tarball (A2)', () => {
    expect(TARBALL_LIMITS.maxEntries).toBe(2000);
    expect(TREE_LIMITS.maxEntries).toBe(20_000);
    expect(TREE_LIMITS.maxFileBytes).toBe(TARBALL_LIMITS.maxFileBytes);
    expect(TREE_LIMITS.maxTotalBytes).toBe(TARBALL_LIMITS.maxTotalBytes);
  });

  it('counts files and bytes, leaving .git out and following links by what they name', async () => {
    await mkdir(join(dir, '.git'));
    await writeFile(join(dir, '.git', 'HEAD'), 'x'.repeat(50));
    await writeFile(join(dir, 'a'), '12345');
    await symlink('a', join(dir, 'b'));
    expect(await measureTree(dir, '.', small)).toEqual({ files: 2, bytes: 10 });
  });

  it.each([
    ['files', 4, 1, 'it holds more than 3 files'],
    ['one file', 1, 11, 'f0 is 11 bytes (limit 10 a file)'],
    ['bytes in all', 3, 9, 'it holds more than 25 bytes in all'],
  ])('past the limit of %s: E_ARCHIVE_TOO_LARGE naming the tree', async (_, count, size, why) => {
    for (let i = 0; i < count; i += 1) await writeFile(join(dir, `f${i}`), 'x'.repeat(size));
    const error = await failure(measureTree(dir, './plugins/p', small));
    expect(error.code).toBe('E_ARCHIVE_TOO_LARGE');
    expect(error.message).toBe(`the plugin directory ./plugins/p is over a size limit: ${why}`);
    expect(error.hint).toContain('limited to 3 files');
  });

  it('past the depth limit, and a link to its own ancestor ends there too', async () => {
    await mkdir(join(dir, 'a', 'b'), { recursive: true });
    await symlink('..', join(dir, 'a', 'b', 'up'));
    const error = await failure(measureTree(dir, '.', small));
    expect(error.code).toBe('E_ARCHIVE_TOO_LARGE');
    expect(error.message).toContain('a/b/up is more than 2 directories deep');
  });
});

describe('measureTree on a hostile tree', () => {
  it('security.md: links fanning out to the same directories end at the entry limit, quickly', async () => {
    // Two links in each of 28 directories to the next one: 2^28 paths, no file among them.
    for (let i = 0; i <= 28; i += 1) await mkdir(join(dir, 'fan', String(i)), { recursive: true });
    for (let i = 0; i < 28; i += 1) {
      await symlink(`../${i + 1}`, join(dir, 'fan', String(i), 'a'));
      await symlink(`../${i + 1}`, join(dir, 'fan', String(i), 'b'));
    }
    const error = await failure(measureTree(dir, '.', { ...TREE_LIMITS, maxEntries: 200 }));
    expect(error.code).toBe('E_ARCHIVE_TOO_LARGE');
    expect(error.message).toContain('it holds more than 200 entries');
  });

  it('H5: a link out of the tree is not followed; nothing outside it is counted or named', async () => {
    const outside = await mkdtemp(join(tmpdir(), 'hookpm-tree-size-outside-'));
    try {
      await mkdir(join(outside, 'deep', 'er'), { recursive: true });
      await writeFile(join(outside, 'deep', 'er', 'secret-name'), 'x'.repeat(50));
      await writeFile(join(dir, 'a'), '12345');
      await symlink(outside, join(dir, 'out'));
      await symlink(join(outside, 'deep', 'er', 'secret-name'), join(dir, 'file-out'));
      expect(await measureTree(dir, '.', small)).toEqual({ files: 1, bytes: 5 });
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });
});
