/**
 * docs/guides/projects.md and security.md ("loses nothing"), with the built binary: a project
 * command whose hookpm.json or hookpm.lock cannot be written leaves both files, and the state,
 * as they were. The new bytes are written beside the files before the state is (a directory that
 * takes no new file fails there), and put in place after it (a file that cannot be replaced fails
 * there, and the state is put back). The failures are made with `chattr +i` (immutable: even root
 * cannot create, rename or replace), on the file system of the system's temporary directory.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { resolveStorePaths } from '../../src/store/paths.js';
import { ensureBuilt, runBin, type BinRun } from '../helpers/built-bin.js';
import { hashStore } from '../helpers/store-snapshot.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';

let home: TempHome;
let work: string;
let project: string;
const immutable: string[] = [];

beforeAll(() => ensureBuilt());
beforeEach(async () => {
  home = await makeTempHome('hookpm-commit-');
  work = await mkdtemp(join(tmpdir(), 'hookpm-commit-project-'));
  project = join(work, 'repo');
  await mkdir(join(project, '.git'), { recursive: true });
});
afterEach(async () => {
  for (const path of immutable.splice(0)) chattr('-i', path);
  await home.cleanup();
  await rm(work, { recursive: true, force: true });
});

function chattr(flag: '+i' | '-i', path: string): void {
  execFileSync('chattr', [flag, path]);
  if (flag === '+i') immutable.push(path);
}

function hookpm(...args: string[]): Promise<BinRun> {
  return runBin(args, { env: home.env, cwd: project });
}

/** hookpm.json, hookpm.lock, the project root's names and the store, to compare. */
async function snapshot(): Promise<unknown> {
  return {
    manifest: await readFile(join(project, 'hookpm.json'), 'utf8'),
    lock: await readFile(join(project, 'hookpm.lock'), 'utf8'),
    names: (await readdir(project)).sort(),
    store: await hashStore(resolveStorePaths({ HOOKPM_HOME: home.env.HOOKPM_HOME })),
  };
}

async function installTwo(): Promise<void> {
  const run = await hookpm('install', '--project', 'guard@examples', 'audit-log@examples', '--yes');
  expect(run.code, run.stderr).toBe(0);
}

/**
 * `args` fail, naming `file` as the user's file it could not write (errors.md E_IO, never the
 * store's E_STORE_READONLY), and change nothing.
 */
async function expectRefusedUnchanged(
  before: unknown,
  file: string,
  ...args: string[]
): Promise<void> {
  const run = await hookpm(...args);
  expect(run.code, run.stdout).not.toBe(0);
  expect(run.stderr).toContain(
    `error[E_IO]: cannot write ${join(project, file)}: operation not permitted (EPERM)`,
  );
  expect(run.stderr).toContain(`Check the permissions of ${join(project, file)}`);
  expect(run.stderr).not.toMatch(/E_STORE_READONLY|HOOKPM_HOME/);
  expect(await snapshot()).toEqual(before);
  const listed = await hookpm('list', '--project', '--json');
  expect(listed.stdout).toContain('guard@examples');
}

describe('temporary files a killed command left beside the project files', () => {
  it("D2: the next project command removes a dead process's, and leaves a live one's", async () => {
    await installTwo();
    const dead = spawnSync('true').pid!;
    const gone = join(project, `.hookpm.json.tmp-${dead}-0123456789ab`);
    const live = join(project, `.hookpm.lock.tmp-${process.pid}-0123456789ab`);
    await writeFile(gone, '{}');
    await writeFile(live, '{}');
    const run = await hookpm('uninstall', '--project', 'guard');
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(gone)).toBe(false);
    expect(existsSync(live)).toBe(true);
  });
});

describe('a project command that cannot write its files changes nothing', () => {
  it('projects: hookpm.json cannot be replaced (after the state is written): the lock and the state are put back', async () => {
    await installTwo();
    const before = await snapshot();
    chattr('+i', join(project, 'hookpm.json'));
    await expectRefusedUnchanged(before, 'hookpm.json', 'uninstall', '--project', 'guard');
    await expectRefusedUnchanged(
      before,
      'hookpm.json',
      'install',
      '--project',
      'notify-on-stop@examples',
      '--yes',
    );
  });

  it('projects: no new file can be made beside them (before the state is written): nothing is written', async () => {
    await installTwo();
    const before = await snapshot();
    chattr('+i', project);
    // The lock is prepared first.
    await expectRefusedUnchanged(before, 'hookpm.lock', 'uninstall', '--project', 'guard');
  });
});
