/**
 * registry.md "Registry kinds" (a marketplace directory) with security.md (a FIFO is never read as
 * a file, bad input gets a clear error): a marketplace directory whose catalog file is a FIFO is
 * refused by that file's name and what it is, at once, never waited on and never mistaken for a
 * static registry; a directory with no catalog says so. Real directories, the built CLI; the store
 * stays byte-identical.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveStorePaths } from '../../src/store/paths.js';
import { ensureBuilt, runBin } from '../helpers/built-bin.js';
import { hashStore } from '../helpers/store-snapshot.js';

let root: string;
let env: Record<string, string>;

beforeAll(async () => {
  ensureBuilt();
  root = await mkdtemp(join(tmpdir(), 'hookpm-mkt-kinds-'));
  env = { ...(process.env as Record<string, string>), HOME: root, HOOKPM_HOME: join(root, 'home') };
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe("a marketplace directory's catalog file", () => {
  it('a FIFO as .claude-plugin/marketplace.json is E_IO naming it; an empty directory is E_NOT_FOUND naming the catalog files', async () => {
    const market = join(root, 'fifo');
    await mkdir(join(market, '.claude-plugin'), { recursive: true });
    const catalog = join(market, '.claude-plugin', 'marketplace.json');
    execFileSync('mkfifo', [catalog]);
    const before = await hashStore(resolveStorePaths(env));
    const run = await runBin(['registry', 'add', 'mkt', market], { env, cwd: root });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`error[E_IO]: cannot read ${catalog}: it is a FIFO`);
    expect(run.stderr).toContain('Replace it with a regular file');
    expect(await hashStore(resolveStorePaths(env))).toEqual(before);

    const empty = join(root, 'empty', '.claude-plugin');
    await mkdir(empty, { recursive: true });
    const none = await runBin(['registry', 'add', 'mkt', join(root, 'empty')], { env, cwd: root });
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('error[E_NOT_FOUND]');
    expect(none.stderr).toContain('marketplace.json');
  });
});
