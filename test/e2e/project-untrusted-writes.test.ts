/**
 * docs/reference/rules/registry.md J2 with the built binary: a cloned repository can hold
 * symlinks, so every file hookpm writes for a project (`link --project`, `unlink --project`,
 * hookpm.json, hookpm.lock) and into the directory `init --existing` fills lands inside that root
 * once symlinks are resolved, or the command is refused with E_SYMLINK_ESCAPE before anything is
 * written, the symlink's target untouched.
 */
import { existsSync } from 'node:fs';
import { lstat, mkdir, readFile, readdir, symlink, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveStorePaths } from '../../src/store/paths.js';
import type { BinRun } from '../helpers/built-bin.js';
import { useBinWorkspace } from '../helpers/bin-workspace.js';
import { hashStore } from '../helpers/store-snapshot.js';

const ws = useBinWorkspace('e2e-untrusted-writes', '.claude');

const USER_SETTINGS = '{\n  "model": "opus"\n}\n';
const userFile = () => join(ws.home, '.claude', 'settings.json');

function refused(run: BinRun, file: string): void {
  expect(run.code, run.stdout).not.toBe(0);
  expect(run.stderr).toContain('error[E_SYMLINK_ESCAPE]');
  expect(run.stderr).toContain(file);
  expect(run.stderr).not.toContain('E_INTERNAL');
}

const store = () => hashStore(resolveStorePaths({ HOOKPM_HOME: join(ws.home, 'hookpm') }));

describe('files hookpm writes for a project stay inside it (J2)', () => {
  it("J2: `link claude --project` refuses a .claude that links to ~/.claude, and a symlinked .claude/settings.json; the user's file is untouched", async () => {
    await writeFile(userFile(), USER_SETTINGS);
    await symlink(join(ws.home, '.claude'), join(ws.repo, '.claude'));
    for (const verb of ['link', 'unlink']) {
      const run = await ws.hookpm([verb, 'claude', '--project']);
      refused(run, join(ws.repo, '.claude', 'settings.json'));
      expect(run.stderr).toContain(`outside the project ${ws.repo}`);
    }
    expect(await readFile(userFile(), 'utf8')).toBe(USER_SETTINGS);

    const elsewhere = join(ws.home, 'elsewhere');
    await mkdir(elsewhere);
    await writeFile(join(elsewhere, 'settings.json'), USER_SETTINGS);
    await unlink(join(ws.repo, '.claude'));
    await mkdir(join(ws.repo, '.claude'));
    await symlink(join(elsewhere, 'settings.json'), join(ws.repo, '.claude', 'settings.json'));
    refused(await ws.hookpm(['link', 'claude', '--project']), join(ws.repo, '.claude'));
    expect(await readFile(join(elsewhere, 'settings.json'), 'utf8')).toBe(USER_SETTINGS);
    // A dangling link: where it would write cannot be known, so it is refused too.
    await unlink(join(ws.repo, '.claude', 'settings.json'));
    await symlink(join(elsewhere, 'new.json'), join(ws.repo, '.claude', 'settings.json'));
    refused(await ws.hookpm(['link', 'claude', '--project']), join(ws.repo, '.claude'));
    expect(existsSync(join(elsewhere, 'new.json'))).toBe(false);
    expect(existsSync(join(ws.home, 'hookpm', 'data', 'links'))).toBe(false);
  });

  it('J2: `link` alone and doctor do not read a project settings file that a symlink leads out of the project, and say so', async () => {
    const elsewhere = join(ws.home, 'elsewhere');
    await mkdir(elsewhere);
    await writeFile(join(elsewhere, 'secret'), 'token=s3cr3t\n');
    await mkdir(join(ws.repo, '.claude'));
    await symlink(join(elsewhere, 'secret'), join(ws.repo, '.claude', 'settings.json'));
    const listed = await ws.hookpm(['link', '--json']);
    const project = (
      JSON.parse(listed.stdout) as { links: Array<{ agent: string; scope: string }> }
    ).links.find((l) => l.agent === 'claude' && l.scope === 'project');
    expect(project).toMatchObject({ state: 'unreadable' });
    const doctor = await ws.hookpm(['doctor', '--json']);
    for (const out of [JSON.stringify(project), doctor.stdout]) {
      expect(out).toContain(`refusing to read ${join(ws.repo, '.claude', 'settings.json')}`);
      expect(out).not.toMatch(/found \\?"t/);
    }
  });

  it('J2: a symlink that stays inside the project is followed (a .claude linked to a folder of the repository)', async () => {
    await mkdir(join(ws.repo, 'config', 'claude'), { recursive: true });
    await symlink(join(ws.repo, 'config', 'claude'), join(ws.repo, '.claude'));
    const run = await ws.hookpm(['link', 'claude', '--project']);
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(join(ws.repo, 'config', 'claude', 'settings.json'))).toBe(true);
  });

  it('J2: hookpm.lock and hookpm.json linked to files inside the project are followed: their targets are written, the links kept', async () => {
    const text = '{\n  "lockfileVersion": 1,\n  "plugins": {}\n}\n';
    await mkdir(join(ws.repo, 'config'));
    await writeFile(join(ws.repo, 'config', 'lock.json'), text);
    await writeFile(join(ws.repo, 'config', 'project.json'), '{"plugins":{},"registries":{}}\n');
    await symlink(join('config', 'lock.json'), join(ws.repo, 'hookpm.lock'));
    await symlink(join('config', 'project.json'), join(ws.repo, 'hookpm.json'));
    const run = await ws.hookpm(['install', '--project', 'guard@examples', '--yes']);
    expect(run.code, run.stderr).toBe(0);
    for (const [link, target] of [
      ['hookpm.lock', 'lock.json'],
      ['hookpm.json', 'project.json'],
    ] as const) {
      expect((await lstat(join(ws.repo, link))).isSymbolicLink()).toBe(true);
      expect(await readFile(join(ws.repo, 'config', target), 'utf8')).toContain('guard@examples');
    }
  });

  it('J2: hookpm.lock or hookpm.json linked to a file outside the project is refused before the state is written; the file is untouched', async () => {
    const outside = join(ws.home, 'shared-lock.json');
    const text = '{\n  "lockfileVersion": 1,\n  "plugins": {}\n}\n';
    await writeFile(outside, text);
    await symlink(outside, join(ws.repo, 'hookpm.lock'));
    const before = await store();
    refused(
      await ws.hookpm(['install', '--project', 'guard@examples', '--yes']),
      join(ws.repo, 'hookpm.lock'),
    );
    expect(await readFile(outside, 'utf8')).toBe(text);
    expect(await store()).toEqual(before);
    expect(existsSync(join(ws.repo, 'hookpm.json'))).toBe(false);
  });

  it('J2: hookpm.json or hookpm.lock linked to a file outside the project is not read by any command (ci included): nothing of that file is printed, the store is unchanged', async () => {
    const ok = await ws.hookpm(['install', '--project', 'guard@examples', '--yes']);
    expect(ok.code, ok.stderr).toBe(0);
    const secret = join(ws.home, 'secret.json');
    await writeFile(secret, '{"plugins":{},"registries":{},"TOP-SECRET-KEY":1}\n');
    const manifest = await readFile(join(ws.repo, 'hookpm.json'), 'utf8');
    await unlink(join(ws.repo, 'hookpm.json'));
    await symlink(secret, join(ws.repo, 'hookpm.json'));
    const before = await store();
    for (const args of [
      ['list', '--project'],
      ['ci', '--yes'],
    ]) {
      const run = await ws.hookpm(args);
      refused(run, join(ws.repo, 'hookpm.json'));
      expect(run.stderr).toContain('refusing to read');
      expect(run.stderr).not.toContain('TOP-SECRET');
    }
    // A lock copied outside and linked: `ci`, which writes no file, does not follow it either.
    await unlink(join(ws.repo, 'hookpm.json'));
    await writeFile(join(ws.repo, 'hookpm.json'), manifest);
    const lock = join(ws.home, 'shared-lock.json');
    const lockText = await readFile(join(ws.repo, 'hookpm.lock'), 'utf8');
    await writeFile(lock, lockText);
    await unlink(join(ws.repo, 'hookpm.lock'));
    await symlink(lock, join(ws.repo, 'hookpm.lock'));
    for (const args of [
      ['ci', '--yes'],
      ['uninstall', '--project', 'guard'],
    ])
      refused(await ws.hookpm(args), join(ws.repo, 'hookpm.lock'));
    expect(await readFile(lock, 'utf8')).toBe(lockText);
    expect(await store()).toEqual(before);
  });

  it('J2: `init --existing` refuses a symlinked hooks/ folder that leads outside the plugin directory, and writes nothing', async () => {
    const plugin = join(ws.repo, 'my-plugin');
    const outside = join(ws.home, 'outside-hooks');
    await mkdir(plugin);
    await mkdir(outside);
    await writeFile(join(plugin, 'notes.txt'), 'mine\n');
    await symlink(outside, join(plugin, 'hooks'));
    const run = await ws.hookpm(['init', plugin, '--existing']);
    refused(run, join(plugin, 'hooks'));
    expect(await readdir(outside)).toEqual([]);
    expect((await readdir(plugin)).sort()).toEqual(['hooks', 'notes.txt']);
  });
});
