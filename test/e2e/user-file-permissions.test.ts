/**
 * docs/reference/errors.md, E_IO, with the built binary: one of the user's own files that hookpm
 * may not write (an agent's settings file or its directory, a directory `hookpm init` fills) is
 * E_IO naming that file, with a hint about its permissions, and is left as it was. E_STORE_READONLY
 * and HOOKPM_HOME belong to hookpm's own store, never to these. The failures are made with
 * `chattr +i` (immutable: even root cannot create, rename or replace), on the file system of the
 * system's temporary directory; the flags are removed after each test.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ensureBuilt, runBin, type BinRun } from '../helpers/built-bin.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';
import { hashStore } from '../helpers/store-snapshot.js';
import { resolveStorePaths } from '../../src/store/paths.js';

let home: TempHome;
const immutable: string[] = [];

beforeAll(() => ensureBuilt());
beforeEach(async () => {
  home = await makeTempHome('hookpm-user-file-');
  await mkdir(join(home.dir, '.claude'));
});
afterEach(async () => {
  for (const path of immutable.splice(0)) chattr('-i', path);
  await home.cleanup();
});

function chattr(flag: '+i' | '-i', path: string): void {
  execFileSync('chattr', [flag, path]);
  if (flag === '+i') immutable.push(path);
}

function hookpm(...args: string[]): Promise<BinRun> {
  return runBin(args, { env: home.env, cwd: home.dir });
}

const settings = () => join(home.dir, '.claude', 'settings.json');
const USER_SETTINGS = '{\n  "model": "opus"\n}\n';

/** The error a failed run printed, from `--json`. */
function errorOf(run: BinRun): { code: string; message: string; hint: string } {
  expect(run.code, run.stderr).toBe(1);
  return (JSON.parse(run.stdout) as { error: { code: string; message: string; hint: string } })
    .error;
}

/** E_IO naming `file`, with a hint about that file's permissions and nothing about the store. */
function expectUserFileError(run: BinRun, action: string, file: string): void {
  const error = errorOf(run);
  expect(error.code).toBe('E_IO');
  expect(error.message).toBe(`cannot ${action} ${file}: operation not permitted (EPERM)`);
  expect(error.hint).toContain(`Check the permissions of ${file} and of its directory`);
  expect(`${error.message} ${error.hint}`).not.toMatch(/store|HOOKPM_HOME|--home/);
}

describe("errors.md E_IO: a user's file hookpm may not write is named, never called the store", () => {
  it('link: a settings directory that takes no new file is E_IO naming the settings file, left as it was', async () => {
    await writeFile(settings(), USER_SETTINGS);
    chattr('+i', join(home.dir, '.claude'));
    expectUserFileError(await hookpm('link', 'claude', '--json'), 'write', settings());
    expect(await readFile(settings(), 'utf8')).toBe(USER_SETTINGS);
    expect(await readdir(join(home.dir, '.claude'))).toEqual(['settings.json']);
  });

  it('link: a settings file that cannot be replaced is E_IO naming it, left as it was', async () => {
    await writeFile(settings(), USER_SETTINGS);
    chattr('+i', settings());
    expectUserFileError(await hookpm('link', 'claude', '--json'), 'write', settings());
    expect(await readFile(settings(), 'utf8')).toBe(USER_SETTINGS);
    expect(await readdir(join(home.dir, '.claude'))).toEqual(['settings.json']);
  });

  it('agents.md Unlink: link again (another --timeout) on a file that cannot be replaced keeps the link record: unlink still gives back the bytes from before link', async () => {
    // Only a restore gives these bytes back: taking the handlers out leaves `{}`.
    const before = '{\n}\n';
    await writeFile(settings(), before);
    expect((await hookpm('link', 'claude')).code).toBe(0);
    chattr('+i', settings());
    const linked = await readFile(settings(), 'utf8');
    expectUserFileError(
      await hookpm('link', 'claude', '--timeout', '120', '--json'),
      'write',
      settings(),
    );
    expect(await readFile(settings(), 'utf8')).toBe(linked);
    chattr('-i', settings());
    immutable.splice(immutable.indexOf(settings()), 1);
    expect((await hookpm('unlink', 'claude')).code).toBe(0);
    expect(await readFile(settings(), 'utf8')).toBe(before);
  });

  it('security.md: a link or unlink that cannot replace the file leaves the store byte-identical, its backups neither added to nor pruned', async () => {
    await writeFile(settings(), USER_SETTINGS);
    expect((await hookpm('link', 'claude')).code).toBe(0);
    const store = resolveStorePaths(home.env);
    const before = await hashStore(store);
    chattr('+i', settings());
    expectUserFileError(
      await hookpm('link', 'claude', '--timeout', '120', '--json'),
      'write',
      settings(),
    );
    expect((await hookpm('unlink', 'claude')).code).toBe(1);
    expect(await hashStore(store)).toEqual(before);
  });

  it('link: the message and hint also read so on stderr, without --json', async () => {
    chattr('+i', join(home.dir, '.claude'));
    const run = await hookpm('link', 'claude');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `error[E_IO]: cannot write ${settings()}: operation not permitted (EPERM)`,
    );
    expect(run.stderr).not.toContain('E_STORE_READONLY');
  });

  it('init: a plugin directory that takes no new file is E_IO naming the file, and stays empty', async () => {
    const dir = join(home.dir, 'plugin');
    await mkdir(dir);
    chattr('+i', dir);
    const file = join(dir, '.claude-plugin', 'plugin.json');
    expectUserFileError(await hookpm('init', dir, '--json'), 'write the new plugin', file);
    expect(await readdir(dir)).toEqual([]);
  });
});
