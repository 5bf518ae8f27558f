import { spawnSync } from 'node:child_process';
import { chmod, chown, copyFile, link, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/built-bin.js';

// A folder its user cannot read takes another user than root, who reads everything: this runs
// where the tests run as root and `runuser` can drop to `nobody`.
const asRoot = process.getuid?.() === 0 && spawnSync('runuser', ['--help']).status === 0;
const NOBODY = 65534;
const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

/**
 * The Node running the tests, at a path `nobody` can execute: a Node under root's home (the cached
 * Node 24 of the CI's second run) is linked, else copied, into `dir`.
 */
async function nodeForNobody(dir: string): Promise<string> {
  const probe = spawnSync('runuser', ['-u', 'nobody', '--', process.execPath, '-e', '0']);
  if (probe.status === 0) return process.execPath;
  const path = join(dir, 'node');
  try {
    await link(process.execPath, path);
  } catch {
    await copyFile(process.execPath, path);
    await chmod(path, 0o755);
  }
  return path;
}

let node = process.execPath;

/** Runs the built hookpm as `nobody` in `cwd`. */
function hookpmAsNobody(args: string[], cwd: string) {
  const run = spawnSync('runuser', ['-u', 'nobody', '--', node, BIN, ...args], {
    cwd,
    env: { PATH: process.env['PATH'], HOOKPM_HOME: join(cwd, 'home') },
    encoding: 'utf8',
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe.runIf(asRoot)(
  'a plugin folder its author cannot read (cli.md errors: never E_INTERNAL)',
  () => {
    it('pack and install are E_IO naming the folder; validate says install refuses it (plugin_tree_invalid)', async () => {
      const base = await mkdtemp(join(tmpdir(), 'hookpm-unreadable-'));
      dirs.push(base);
      await chmod(base, 0o777);
      node = await nodeForNobody(base);
      const root = join(base, 'p');
      await mkdir(join(root, '.claude-plugin'), { recursive: true });
      await writeFile(
        join(root, '.claude-plugin', 'plugin.json'),
        JSON.stringify({ name: 'p', version: '1.0.0' }),
      );
      await mkdir(join(root, 'locked'));
      for (const path of [
        root,
        join(root, '.claude-plugin'),
        join(root, '.claude-plugin', 'plugin.json'),
      ])
        await chown(path, NOBODY, NOBODY);
      await chmod(join(root, 'locked'), 0o000);

      const pack = hookpmAsNobody(['pack', 'p', '--out', join(base, 'out')], base);
      expect(pack.code, pack.stderr).toBe(1);
      expect(pack.stderr).not.toContain('E_INTERNAL');
      expect(pack.stderr).toContain('E_IO');
      expect(pack.stderr).toContain(join(root, 'locked'));

      // Installing it as a copy reads the same folder: E_IO naming it too (registry.md D4).
      const install = hookpmAsNobody(['install', './p', '--yes'], base);
      expect(install.code, install.stderr).toBe(1);
      expect(install.stderr).not.toContain('E_INTERNAL');
      expect(install.stderr).toContain(`E_IO]: cannot read ${join(root, 'locked')}`);

      const validate = hookpmAsNobody(['validate', 'p', '--json'], base);
      expect(validate.stderr).not.toContain('E_INTERNAL');
      expect(validate.code, validate.stderr).toBe(1);
      const report = JSON.parse(validate.stdout);
      expect(report.diagnostics).toContainEqual(
        expect.objectContaining({
          severity: 'error',
          code: 'plugin_tree_invalid',
          message: expect.stringContaining(join(root, 'locked')),
        }),
      );
    });
  },
);
