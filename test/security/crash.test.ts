/**
 * security.md "State and the file system": an install killed with SIGKILL at any point leaves a
 * store the next command sees as either the old state or the new one, never a mix; leftovers are
 * collected by the next command that takes the lock. The built CLI is killed at three moments:
 * during a download (a slow server), during extraction (a bulk install of large tarballs), and
 * right after a tree was moved into its versioned directory but before the state was written.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { readFile, readdir, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/built-bin.js';
import { packFiles, pluginTree, publishPlugin } from '../helpers/plugin-registry.js';
import { useRegistryHome } from '../helpers/registry-home.js';

const ctx = useRegistryHome('hookpm-crash-');
const data = (): string => join(ctx.home.env.HOOKPM_HOME as string, 'data');

beforeEach(async () => {
  await publishPlugin(ctx.acme, 'keep', '1.0.0');
  await hookpm('registry', 'add', 'acme', ctx.acme.url);
  await hookpm('install', 'keep@acme', '--yes');
});

async function hookpm(...args: string[]): Promise<string> {
  return (await ctx.ok(...args)).stdout;
}

function start(...args: string[]): ChildProcess {
  return spawn(process.execPath, [BIN, ...args], {
    env: ctx.home.env,
    cwd: ctx.home.dir,
    stdio: 'ignore',
  });
}

/** Polls `test` every 2 ms; SIGKILLs the child as soon as it holds, and waits for the exit. */
async function killWhen(child: ChildProcess, test: () => boolean, what: string): Promise<void> {
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 20_000;
  let done = false;
  void exited.then(() => (done = true));
  while (!done && Date.now() < deadline) {
    if (test()) {
      child.kill('SIGKILL');
      await exited;
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  child.kill('SIGKILL');
  throw new Error(`the install ended before ${what}`);
}

function entries(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** Staging trees holding something: an extraction has started. */
const extracting = (): boolean =>
  entries(join(data(), '.staging')).some(
    (name) => entries(join(data(), '.staging', name)).length > 0,
  );

/** A versioned directory of a plugin other than `keep`: a tree was promoted. */
const promoted = (): boolean =>
  entries(join(data(), 'plugins')).some((dir) => !dir.startsWith('keep'));

interface Listed {
  plugins: Array<{ id: string; version: string }>;
}

/**
 * The next commands see a consistent store: `list --json` works and names only plugins whose
 * trees exist (the old state or the new one); after the next locking command, staging is empty
 * and every versioned directory belongs to a plugin of the state.
 */
async function expectConsistent(allowed: ReadonlyArray<readonly string[]>): Promise<void> {
  const listed = JSON.parse(await hookpm('list', '--json')) as Listed;
  const ids = listed.plugins.map((p) => p.id).sort();
  expect(allowed.map((a) => [...a].sort())).toContainEqual(ids);
  const state = JSON.parse(await readFile(join(data(), 'state.json'), 'utf8')) as {
    plugins: Record<string, { path: string; pending: { path: string } | null }>;
  };
  for (const record of Object.values(state.plugins)) expect(existsSync(record.path)).toBe(true);
  await hookpm('install', 'keep@acme', '--yes');
  expect(await readdir(join(data(), '.staging')).catch(() => [])).toEqual([]);
  const referenced = new Set(Object.values(state.plugins).map((r) => r.path));
  for (const plugin of await readdir(join(data(), 'plugins')))
    for (const version of await readdir(join(data(), 'plugins', plugin)))
      expect(referenced.has(join(data(), 'plugins', plugin, version))).toBe(true);
}

describe('security.md: SIGKILL during an install', () => {
  it('killed during the download (a slow server): the old state, nothing promoted; leftovers collected', async () => {
    const packed = await publishPlugin(ctx.acme, 'slow', '1.0.0');
    let sent = false;
    ctx.acme.handlers.set('/tarballs/slow-1.0.0.tgz', (_req, res) => {
      res.setHeader('content-length', String(packed.bytes.length));
      res.write(packed.bytes.subarray(0, 64), () => (sent = true));
    });
    const cache = join(ctx.home.env.HOOKPM_HOME as string, 'cache', 'tarballs');
    const child = start('install', 'slow@acme', '--yes');
    const partial = (): boolean => sent && entries(cache).some((name) => name.endsWith('.part'));
    await killWhen(child, partial, 'the download started');
    await expectConsistent([['keep@acme']]);
    // The partial download sits in the cache (never under a cache name); once stale, the next
    // download into the cache removes it.
    const parts = entries(cache).filter((name) => name.endsWith('.part'));
    expect(parts).toHaveLength(1);
    const old = new Date(Date.now() - 60 * 60_000);
    await utimes(join(cache, parts[0] as string), old, old);
    ctx.acme.handlers.delete('/tarballs/slow-1.0.0.tgz');
    await hookpm('install', 'slow@acme', '--yes');
    expect(entries(cache).filter((name) => name.endsWith('.part'))).toEqual([]);
  }, 30_000);

  it('killed during extraction of a bulk install: the old state; staging collected by the next command', async () => {
    const names: string[] = [];
    for (let n = 0; n < 12; n += 1) {
      const name = `big${n}`;
      const files = pluginTree(name, '1.0.0');
      for (let f = 0; f < 200; f += 1) files[`data/f${f}.bin`] = Buffer.alloc(4096, n + f);
      const packed = await packFiles(files);
      ctx.acme.publish(name, '1.0.0', packed.bytes, {
        events: packed.events,
        surfaceHash: packed.surfaceHash,
      });
      names.push(`${name}@acme`);
    }
    const child = start('install', ...names, '--yes');
    await killWhen(child, extracting, 'an extraction started');
    await expectConsistent([['keep@acme']]);
  }, 30_000);

  it('killed right after a tree was promoted, before the state was written: the old state; the orphan tree collected', async () => {
    const names: string[] = [];
    for (let n = 0; n < 40; n += 1) {
      await publishPlugin(ctx.acme, `p${n}`, '1.0.0');
      names.push(`p${n}@acme`);
    }
    const child = start('install', ...names, '--yes');
    await killWhen(child, promoted, 'a tree was promoted');
    // The killed process held the lock and had promoted trees the state does not name yet.
    expect(existsSync(join(data(), '.lock'))).toBe(true);
    expect(promoted()).toBe(true);
    await expectConsistent([['keep@acme']]);
    expect(promoted()).toBe(false);
  }, 30_000);
});
