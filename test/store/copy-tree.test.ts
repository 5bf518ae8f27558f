import { spawnSync } from 'node:child_process';
import { lstat, mkdir, readFile, readdir, symlink } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isHookpmError } from '../../src/errors.js';
import { copyPluginTree } from '../../src/store/copy-tree.js';
import { tempDir, writeTree } from './plugin-tree.js';

let base: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir: base, cleanup } = await tempDir('hookpm-copy-'));
});
afterEach(() => cleanup());

async function copyError(source: string, target: string) {
  try {
    await copyPluginTree(source, target);
  } catch (error) {
    if (isHookpmError(error)) return error;
    throw error;
  }
  throw new Error('expected a HookpmError');
}

describe('copyPluginTree', () => {
  it('H5: a symlink to a directory inside the plugin is copied as that directory', async () => {
    const src = join(base, 'p');
    await writeTree(src, { 'lib/a.sh': 'echo a', alias: { link: 'lib' } });
    await copyPluginTree(src, join(base, 'out'));
    expect((await lstat(join(base, 'out', 'alias'))).isDirectory()).toBe(true);
    expect(await readFile(join(base, 'out', 'alias', 'a.sh'), 'utf8')).toBe('echo a');
  });

  it('H5: a symlink to a directory that contains it (a cycle) is refused with E_SYMLINK_ESCAPE naming it', async () => {
    const src = join(base, 'p');
    await writeTree(src, { 'sub/x': 'x' });
    await symlink('..', join(src, 'sub', 'loop'));
    const error = await copyError(src, join(base, 'out'));
    expect(error.code).toBe('E_SYMLINK_ESCAPE');
    expect(error.message).toContain('sub/loop');
  });

  it('H5: a symlink through a parent directory to a file outside is refused', async () => {
    await writeTree(base, { 'outside.txt': 'secret' });
    const src = join(base, 'p');
    await writeTree(src, { 'plugin.json': '{}', 'x/leak': { link: '../../outside.txt' } });
    const error = await copyError(src, join(base, 'out'));
    expect([error.code, error.details.file]).toEqual(['E_SYMLINK_ESCAPE', 'x/leak']);
  });

  it('copies regular files and directories only: .git and FIFOs are left out', async () => {
    const src = join(base, 'p');
    await writeTree(src, { 'plugin.json': '{}', '.git/HEAD': 'ref', 'empty/.keep': '' });
    const fifo = spawnSync('mkfifo', [join(src, 'pipe')]);
    expect(fifo.status).toBe(0);
    const copied = await copyPluginTree(src, join(base, 'out'));
    expect((await readdir(join(base, 'out'))).sort()).toEqual(['empty', 'plugin.json']);
    expect(copied.files).toBe(2);
  });

  it.each([
    ['hooks/hooks.json', 'E_HOOKS_INVALID'],
    ['.claude-plugin/plugin.json', 'E_MANIFEST_INVALID'],
  ])(
    'registry.md D7: a FIFO at %s, which hookpm reads, is refused, directly or through a link',
    async (path, code) => {
      for (const linked of [false, true]) {
        const src = join(base, `p-${code}-${linked}`);
        await writeTree(src, { 'other.txt': 'x' });
        await mkdir(dirname(join(src, path)), { recursive: true });
        const fifo = linked ? join(src, 'pipe') : join(src, path);
        expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
        if (linked) await symlink(relative(dirname(join(src, path)), fifo), join(src, path));
        const error = await copyError(src, join(base, `out-${code}-${linked}`));
        expect([error.code, error.details.file]).toEqual([code, path]);
        expect(error.message).toMatch(/is a FIFO, not a regular file$/);
      }
    },
  );

  it('registry.md D7: a FIFO that a linked directory puts at hooks/hooks.json is refused too', async () => {
    // hooks -> real: hookpm reads hooks/hooks.json of the copy, where real/hooks.json lands.
    const src = join(base, 'p-linked-dir');
    await writeTree(src, { 'other.txt': 'x' });
    await mkdir(join(src, 'real'));
    expect(spawnSync('mkfifo', [join(src, 'real', 'hooks.json')]).status).toBe(0);
    await symlink('real', join(src, 'hooks'));
    const error = await copyError(src, join(base, 'out-linked-dir'));
    expect([error.code, error.details.file]).toEqual(['E_HOOKS_INVALID', 'hooks/hooks.json']);
  });

  it.each([
    ['.claude-plugin/plugin.json', '"./hooks/extra.json"', 'hooks/extra.json', ':hooks'],
    ['plugin.json', '["./a.json", "./more"]', 'more/hooks.json', ':hooks[1]'],
    [null, null, 'hooks', null],
  ])(
    'registry.md D7: a FIFO where %s names a hooks document (%s) is refused as validate refuses it, not left out',
    async (manifest, hooks, path, field) => {
      const src = join(base, 'p-named');
      const tree: Record<string, string> = { 'a.json': '{"hooks":{}}' };
      if (manifest !== null) tree[manifest] = `{"name": "p", "hooks": ${hooks}}`;
      await writeTree(src, tree);
      await mkdir(dirname(join(src, path)), { recursive: true });
      expect(spawnSync('mkfifo', [join(src, path)]).status).toBe(0);
      const error = await copyError(src, join(base, 'out-named'));
      expect([error.code, error.details.file]).toEqual(['E_HOOKS_INVALID', path]);
      const named = field === null ? '' : ` (named by ${manifest}${field})`;
      expect(error.message).toContain(`hooks document ${path}${named} is a FIFO, not a regular`);
    },
  );

  it('a directory nested deeper than the limit is refused before it is all copied', async () => {
    const src = join(base, 'p');
    await mkdir(join(src, ...Array.from({ length: 70 }, () => 'd')), { recursive: true });
    expect((await copyError(src, join(base, 'out'))).code).toBe('E_ARCHIVE_TOO_LARGE');
  });
});
