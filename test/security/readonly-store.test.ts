/**
 * security.md "State and the file system": a read-only store is a clear error before any network
 * access. The store is a tmpfs remounted read-only in a private mount namespace (unshare -m), with a
 * registry added before the remount; `hookpm install`, `hookpm update` and `hookpm registry add`
 * then fail with E_STORE_READONLY and the registries on 127.0.0.1 see no request from them. A
 * store too full for a plugin's files (a small tmpfs on its staging) is E_NOSPC with its hint; so
 * is a `registry build` into a full output directory, with the build's own hint.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { BIN } from '../helpers/built-bin.js';
import {
  pluginTree,
  publishPlugin,
  publishTree,
  startPluginRegistry,
} from '../helpers/plugin-registry.js';
import { MOUNT, requireTool, UNSHARE } from '../helpers/system-package.js';
import { useRegistryHome } from '../helpers/registry-home.js';

const ctx = useRegistryHome('hookpm-readonly-');

/** `script` as root of a private mount namespace: $1 the store, $2 node, $3 hookpm, then args. */
async function inNamespace(
  script: string,
  args: readonly string[] = [],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const store = ctx.home.env.HOOKPM_HOME as string;
  const unshare = process.getuid?.() === 0 ? ['-m'] : ['-r', '-m'];
  await requireTool(MOUNT);
  const unshareBin = await requireTool(UNSHARE);
  return new Promise((resolve, reject) => {
    const child = spawn(
      unshareBin,
      [...unshare, 'sh', '-ec', script, 'sh', store, process.execPath, BIN, ...args],
      {
        env: ctx.home.env,
        cwd: ctx.home.dir,
      },
    );
    let stdout = '';
    let stderr = '';
    child.on('error', reject);
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('security.md: a read-only store', () => {
  it('install and update fail with E_STORE_READONLY before any network access', async () => {
    await publishPlugin(ctx.acme, 'keep', '1.0.0');
    await mkdir(ctx.home.env.HOOKPM_HOME as string, { recursive: true });
    const script = [
      'mount -t tmpfs -o size=4m tmpfs "$1"',
      `"$2" "$3" registry add acme ${ctx.acme.url} >/dev/null`,
      `"$2" "$3" install keep@acme --yes >/dev/null`,
      'mount -o remount,ro "$1"',
      'echo ---',
      '"$2" "$3" install guard@acme --yes --json || true',
      'echo ---',
      '"$2" "$3" update --json || true',
    ].join('; ');
    const before = ctx.acme.requests.length;
    await publishPlugin(ctx.acme, 'guard', '1.0.0');
    await publishPlugin(ctx.acme, 'keep', '1.1.0');
    const run = await inNamespace(script);
    expect(run.code, run.stderr).toBe(0);
    const [, install, update] = run.stdout.split('---\n');
    expect(JSON.parse(install ?? '')).toMatchObject({ error: { code: 'E_STORE_READONLY' } });
    expect(JSON.parse(update ?? '')).toMatchObject({ error: { code: 'E_STORE_READONLY' } });
    // Only the registry add (its sparse root asked first, N6) and the first install, before the
    // remount, talked to the registry.
    expect(ctx.acme.requests.slice(before)).toEqual([
      '/registry.json',
      '/index.json',
      '/tarballs/keep-1.1.0.tgz',
    ]);
  });

  it('registry add fails with E_STORE_READONLY before any network access; the store is byte-identical', async () => {
    const other = await startPluginRegistry('other');
    try {
      await publishPlugin(other, 'guard', '1.0.0');
      await mkdir(ctx.home.env.HOOKPM_HOME as string, { recursive: true });
      // Every file of the store with its digest, in a stable order, printed between the markers.
      const digest = 'find "$1" -type f -exec sha256sum {} + | sort';
      const script = [
        'mount -t tmpfs -o size=4m tmpfs "$1"',
        `"$2" "$3" registry add acme ${ctx.acme.url} >/dev/null`,
        'mount -o remount,ro "$1"',
        `echo ---; ${digest}; echo ---`,
        `"$2" "$3" registry add other ${other.url} --json || true`,
        `echo ---; ${digest}`,
      ].join('; ');
      const run = await inNamespace(script);
      expect(run.code, run.stderr).toBe(0);
      const [, storeBefore, added, storeAfter] = run.stdout.split('---\n');
      expect(JSON.parse(added ?? '')).toMatchObject({ error: { code: 'E_STORE_READONLY' } });
      expect(storeAfter).toBe(storeBefore);
      expect(storeBefore).toContain('state.json');
      expect(other.requests).toEqual([]);
    } finally {
      await other.close();
    }
  });
});

/**
 * `config set` in a store of a tmpfs set up by `setup` (shell lines, `$1` the store), with a `data`
 * directory and no config directory: its JSON error, and what the store holds after it.
 */
async function configSetIn(setup: string[]): Promise<{ error: JsonError; listing: string }> {
  await mkdir(ctx.home.env.HOOKPM_HOME as string, { recursive: true });
  const script = [
    ...setup,
    '"$2" "$3" config set updates.check never --json || true',
    'echo ---; ls "$1"',
  ].join('; ');
  const run = await inNamespace(script);
  expect(run.code, run.stderr).toBe(0);
  const [set, listing] = run.stdout.split('---\n');
  return { error: (JSON.parse(set ?? '') as { error: JsonError }).error, listing: listing ?? '' };
}

interface JsonError {
  code: string;
  message: string;
}

describe('security.md: a read-only store without a config directory', () => {
  it('config set is E_STORE_READONLY, not a config directory said to be no directory; nothing is made', async () => {
    const { error, listing } = await configSetIn([
      'mount -t tmpfs -o size=4m tmpfs "$1"',
      'mkdir "$1/data"',
      'mount -o remount,ro "$1"',
    ]);
    expect(error.code).toBe('E_STORE_READONLY');
    expect(error.message).toContain('read-only (EROFS)');
    expect(listing).toBe('data\n');
  });
});

describe('security.md: a store too full for a plugin', () => {
  it('an install whose files do not fit in staging (a 64 KiB tmpfs) is E_NOSPC naming the tarball and entry, with the hint to free space; the store is byte-identical', async () => {
    await publishPlugin(ctx.acme, 'keep', '1.0.0');
    await publishTree(ctx.acme, 'big', '1.0.0', {
      ...pluginTree('big', '1.0.0'),
      'data.txt': 'b'.repeat(200_000),
    });
    await ctx.ok('registry', 'add', 'acme', ctx.acme.url);
    await ctx.ok('install', 'keep@acme', '--yes');
    const before = await ctx.store();
    // Only staging is small: the extraction fails, the rest of the store is the real one.
    const script = [
      'mkdir -p "$1/data/.staging"',
      'mount -t tmpfs -o size=64k tmpfs "$1/data/.staging"',
      '"$2" "$3" install big@acme --yes --json || true',
    ].join('; ');
    const run = await inNamespace(script);
    expect(run.code, run.stderr).toBe(0);
    const { error } = JSON.parse(run.stdout) as {
      error: { code: string; message: string; hint: string };
    };
    expect(error.code).toBe('E_NOSPC');
    expect(error.message).toContain('"data.txt"');
    expect(error.hint).toContain('Free some disk space');
    expect(await ctx.store()).toEqual(before);
  });
});

describe('security.md: a store too full for settings.json', () => {
  it('config set is E_NOSPC and leaves no config directory it made', async () => {
    const { error, listing } = await configSetIn([
      'mount -t tmpfs -o size=64k tmpfs "$1"',
      'mkdir "$1/data"',
      'dd if=/dev/zero of="$1/data/fill" bs=4k count=100 2>/dev/null || true',
    ]);
    expect(error.code).toBe('E_NOSPC');
    expect(listing).toBe('data\n');
  });
});
