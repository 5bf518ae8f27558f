/**
 * What `hookpm link` and `unlink` keep in the store of an agent's settings file
 * (docs/guides/agents.md, "What link writes"): the backup made before the file is replaced and the
 * link record, with the built binary. A store that cannot take either stops the command with the
 * store's error before the settings file is touched, and unlink restores only a backup of that file
 * that still holds settings.
 */
import { spawnSync } from 'node:child_process';
import { mkdir, readdir, readFile, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { linkKey } from '../../src/store/link-records.js';
import { useBinWorkspace } from '../helpers/bin-workspace.js';
import { MOUNT, requireTool } from '../helpers/system-package.js';

const ws = useBinWorkspace('e2e-link-backup', '.claude');
const mounts: string[] = [];
afterEach(() => {
  for (const mount of mounts.splice(0)) spawnSync('umount', [mount]);
});

const settings = () => join(ws.home, '.claude', 'settings.json');
const USER_SETTINGS = '{\n  "model": "opus"\n}\n';
const links = () => join(ws.home, 'hookpm', 'data', 'links');

/** A 64 KiB tmpfs at `dir` (it needs root, as the suite's machine is: elsewhere this fails so). */
async function mountSmall(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const mount = spawnSync(
    await requireTool(MOUNT),
    ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir],
    {
      encoding: 'utf8',
    },
  );
  expect(mount.status, `mount -t tmpfs failed (it needs root): ${mount.stderr}`).toBe(0);
  mounts.push(dir);
}

describe('link and unlink back the settings file up first', () => {
  it('D2, errors.md E_NOSPC: a store too full for the backup is E_NOSPC, never E_INTERNAL; the settings file stays byte-identical and no torn backup is left', async () => {
    // 100 KB of the user's settings cannot be copied into a 64 KiB links directory.
    const before = `{\n  "model": "opus",\n  "note": "${'n'.repeat(100_000)}"\n}\n`;
    await writeFile(settings(), before);
    await mountSmall(links());
    const run = await ws.hookpm(['link', 'claude', '--json']);
    expect(run.code, run.stderr).toBe(1);
    expect(JSON.parse(run.stdout).error.code).toBe('E_NOSPC');
    expect(await readFile(settings(), 'utf8')).toBe(before);
    expect(await readdir(join(links(), 'backups'))).toEqual([]);
  });

  it("agents.md Unlink: a backup is restored only when it still parses: a torn one leaves the user's settings less hookpm's handlers, never an empty file", async () => {
    await writeFile(settings(), USER_SETTINGS);
    expect((await ws.hookpm(['link', 'claude'])).code).toBe(0);
    const [backup] = await readdir(join(links(), 'backups'));
    await truncate(join(links(), 'backups', backup!), 0);
    const run = await ws.hookpm(['unlink', 'claude']);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(await readFile(settings(), 'utf8'))).toEqual(JSON.parse(USER_SETTINGS));
  });

  it("agents.md Unlink: only a backup of the store's is restored: a link record naming another file restores nothing from it", async () => {
    await writeFile(settings(), USER_SETTINGS);
    expect((await ws.hookpm(['link', 'claude'])).code).toBe(0);
    const other = join(ws.home, 'other.json');
    await writeFile(other, '{"someone": "else"}\n');
    const [name] = (await readdir(links())).filter((n) => n.endsWith('.json'));
    const record = join(links(), name!);
    const fields = JSON.parse(await readFile(record, 'utf8')) as Record<string, unknown>;
    await writeFile(record, JSON.stringify({ ...fields, before: other }));
    const run = await ws.hookpm(['unlink', 'claude']);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(await readFile(settings(), 'utf8'))).toEqual(JSON.parse(USER_SETTINGS));
  });

  it('agents.md What link writes: a link record the store cannot write fails link with the settings file byte-identical, never linked with no record', async () => {
    await writeFile(settings(), USER_SETTINGS);
    // A directory where the record goes: the record's rename fails, after the backup.
    await mkdir(join(links(), `${linkKey('claude', settings())}.json`), { recursive: true });
    const run = await ws.hookpm(['link', 'claude', '--json']);
    expect(run.code, run.stderr).toBe(1);
    expect(JSON.parse(run.stdout).error.code).toBe('E_IO');
    expect(await readFile(settings(), 'utf8')).toBe(USER_SETTINGS);
  });
});
