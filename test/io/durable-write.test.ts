import { execFileSync } from 'node:child_process';
import { closeSync } from 'node:fs';
import {
  mkdir,
  mkdtemp,
  readFile,
  readdir,
  rename,
  rm,
  stat,
  utimes,
  writeFile,
} from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { isHookpmError } from '../../src/errors.js';
import { writeFileDurable, writeFileDurableHeld } from '../../src/io/durable-write.js';
import { isOpenFileAt } from '../../src/io/file-identity.js';
import { runChild } from '../helpers/child.js';
import { compiledSandbox } from '../helpers/compile-src.js';
import { MOUNT, requireTool, UNSHARE } from '../helpers/system-package.js';
import { codeOf, failure } from '../helpers/failure.js';

const writer = fileURLToPath(new URL('../fixtures/store/durable-writer.mjs', import.meta.url));
const sandbox = compiledSandbox('hookpm-durable-');

/** Runs a shell script in a private mount namespace (mounts vanish with it): root or a user namespace. */
async function inMountNamespace(script: string, args: string[]): Promise<unknown[]> {
  await requireTool(MOUNT);
  const unshare = process.getuid?.() === 0 ? ['-m'] : ['-r', '-m'];
  return runChild(
    await requireTool(UNSHARE),
    [...unshare, 'sh', '-ec', script, 'sh', ...args],
    sandbox.env,
  );
}

describe('writeFileDurable', () => {
  it('D2: writes every byte, applies the mode exactly and leaves no temporary file', async () => {
    const file = join(sandbox.dir, 'ok', 'state.json');
    await mkdir(join(sandbox.dir, 'ok'));
    await writeFile(file, 'old');
    const data = Buffer.alloc(3 * 1024 * 1024, 'z');
    await writeFileDurable(file, data, { mode: 0o600 });
    expect((await readFile(file)).equals(data)).toBe(true);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readdir(join(sandbox.dir, 'ok'))).toEqual(['state.json']);
  });

  it('D2: a short write (file size limit reached mid-write) fails with E_IO and leaves the old file intact', async () => {
    const sub = await mkdtemp(join(sandbox.dir, 'short-'));
    const file = join(sub, 'state.json');
    await writeFile(file, 'o'.repeat(100));
    const [result] = await runChild(
      'bash',
      ['-c', 'ulimit -f 8; exec node "$0" write "$1" 100000', writer, file],
      sandbox.env,
    );
    expect(result).toMatchObject({ code: 'E_IO' });
    expect((result as { message: string }).message).toContain(file);
    expect(await readFile(file, 'utf8')).toBe('o'.repeat(100));
    expect(await readdir(sub)).toEqual(['state.json']);
  });

  it('D2: a full disk (a real 64 KiB tmpfs) gives E_NOSPC, the old file intact and no temporary file', async () => {
    const mountPoint = await mkdtemp(join(sandbox.dir, 'tmpfs-'));
    const script =
      'mount -t tmpfs -o size=64k tmpfs "$2"; node "$1" write "$2/state.json" 100 o; node "$1" write "$2/state.json" 300000; node "$1" inspect "$2"';
    const [first, second, listing] = await inMountNamespace(script, [writer, mountPoint]);
    expect(first).toEqual({ ok: true });
    expect(second).toMatchObject({ code: 'E_NOSPC' });
    expect(listing).toEqual({ 'state.json': { size: 100, head: 'oooooooo' } });
  });

  it('security.md: a read-only store (a tmpfs remounted read-only) gives E_STORE_READONLY and keeps the old file', async () => {
    const mountPoint = await mkdtemp(join(sandbox.dir, 'rofs-'));
    const script =
      'mount -t tmpfs -o size=1m tmpfs "$2"; node "$1" write "$2/state.json" 100 o; mount -o remount,ro "$2"; node "$1" write "$2/state.json" 200; node "$1" inspect "$2"';
    const [first, second, listing] = await inMountNamespace(script, [writer, mountPoint]);
    expect(first).toEqual({ ok: true });
    expect(second).toMatchObject({ code: 'E_STORE_READONLY' });
    expect(listing).toEqual({ 'state.json': { size: 100, head: 'oooooooo' } });
  });

  it('D2: a target whose parent is a file fails with E_IO naming the file', async () => {
    const parent = join(sandbox.dir, 'a-file');
    await writeFile(parent, 'x');
    const target = join(parent, 'state.json');
    const error: unknown = await writeFileDurable(target, 'new').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isHookpmError(error, 'E_IO')).toBe(true);
    expect((error as Error).message).toContain(target);
    expect(await readFile(parent, 'utf8')).toBe('x');
  });

  it('D2: a write into a missing directory fails with E_IO and creates nothing', async () => {
    const sub = await mkdtemp(join(sandbox.dir, 'gone-'));
    await rm(sub, { recursive: true });
    expect(await codeOf(writeFileDurable(join(sub, 'state.json'), 'new'))).toBe('E_IO');
    await expect(stat(sub)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('writeFileDurableHeld', () => {
  it('D2, X10: the descriptor kept is the file written until a rename replaces it, even by the same bytes and times', async () => {
    const dir = await mkdtemp(join(sandbox.dir, 'held-'));
    const file = join(dir, 'pin.json');
    const held = writeFileDurableHeld(file, 'pin one\n', { mode: 0o600 });
    try {
      expect(await readFile(file, 'utf8')).toBe('pin one\n');
      expect(isOpenFileAt(held, file)).toBe(true);
      // Another writer's rename of a file of the same size, bytes and times over it.
      const { mtime } = await stat(file);
      const other = join(dir, 'other');
      await writeFile(other, 'pin one\n');
      await utimes(other, mtime, mtime);
      await rename(other, file);
      expect(isOpenFileAt(held, file)).toBe(false);
    } finally {
      closeSync(held);
    }
    expect(await readdir(dir)).toEqual(['pin.json']);
  });
});

describe('writeFileDurable: whose file it is (fs-error.ts FileOwner)', () => {
  // `chattr +i` makes a directory take no new file, even for root (EPERM).
  const immutable: string[] = [];
  afterEach(() => {
    for (const dir of immutable.splice(0)) execFileSync('chattr', ['-i', dir]);
  });

  async function lockedDir(): Promise<string> {
    const dir = await mkdtemp(join(sandbox.dir, 'immutable-'));
    await writeFile(join(dir, 'file.json'), 'old');
    execFileSync('chattr', ['+i', dir]);
    immutable.push(dir);
    return dir;
  }

  it('security.md: a store file that cannot be written is E_STORE_READONLY (the default owner)', async () => {
    const file = join(await lockedDir(), 'file.json');
    const error = await failure(writeFileDurable(file, 'new'));
    expect(error.code).toBe('E_STORE_READONLY');
    expect(error.message).toBe(`cannot write ${file}: the store is read-only (EPERM)`);
    expect(await readFile(file, 'utf8')).toBe('old');
  });

  it("errors.md E_IO: the user's file that cannot be written is E_IO naming it, with a hint about its permissions, not the store", async () => {
    const file = join(await lockedDir(), 'file.json');
    const error = await failure(writeFileDurable(file, 'new', { owner: 'user', mode: 0o600 }));
    expect(error.code).toBe('E_IO');
    expect(error.message).toBe(`cannot write ${file}: operation not permitted (EPERM)`);
    expect(error.hint).toMatch(/^Check the permissions of .* and of its directory/);
    expect(error.hint).toContain(file);
    expect(`${error.message} ${error.hint}`).not.toMatch(/store|HOOKPM_HOME/);
    expect(await readFile(file, 'utf8')).toBe('old');
    expect(await readdir(dirname(file))).toEqual(['file.json']);
  });
});
