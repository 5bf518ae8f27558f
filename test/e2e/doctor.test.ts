import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, realpath, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  lockFile,
  pluginsDir,
  resolveStorePaths,
  stagingRoot,
  stateFile,
} from '../../src/store/paths.js';
import type { StorePaths } from '../../src/store/store-paths.js';
import { BIN, ensureBuilt, runBin, type BinRun } from '../helpers/built-bin.js';
import { hashStore } from '../helpers/store-snapshot.js';
import { MOUNT, requireTool, UNSHARE } from '../helpers/system-package.js';
import { writeTree } from '../store/plugin-tree.js';

/**
 * `hookpm doctor` end to end through the built binary (cli.md; registry.md D3, D4, D6; plugins.md
 * Q6; security.md "State and the file system"). Every run has HOME and HOOKPM_HOME in a temporary
 * directory; plugins are installed with the real `hookpm install ./dir --yes`.
 */
let dir: string;
let n = 0;

beforeAll(async () => {
  ensureBuilt();
  dir = await realpath(await mkdtemp(join(tmpdir(), 'hookpm-e2e-doctor-')));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

interface Store {
  env: Record<string, string>;
  home: string;
  paths: StorePaths;
  plugin: string;
}

/** A fresh HOME and store, and a small plugin directory `guard` to install. */
async function freshStore(): Promise<Store> {
  n += 1;
  const home = join(dir, `home${n}`);
  const store = join(home, 'store');
  const plugin = join(home, 'guard');
  await writeTree(plugin, {
    'plugin.json': { json: { name: 'guard', version: '1.0.0' } },
    'hooks/hooks.json': {
      json: { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo stop' }] }] } },
    },
  });
  return {
    home,
    plugin,
    paths: resolveStorePaths({ HOOKPM_HOME: store }),
    env: { PATH: process.env.PATH ?? '', HOME: home, HOOKPM_HOME: store, NO_COLOR: '1' },
  };
}

const hookpm = (s: Store, ...args: string[]): Promise<BinRun> =>
  runBin(args, { env: s.env, cwd: s.home });

async function installGuard(s: Store): Promise<void> {
  const run = await hookpm(s, 'install', s.plugin, '--yes');
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
}

function json(run: BinRun): {
  ok: boolean;
  checks: Array<{
    name: string;
    status: string;
    code?: string;
    message: string;
    fix?: string;
    paths?: string[];
  }>;
} {
  return JSON.parse(run.stdout) as ReturnType<typeof json>;
}

function deadPid(): number {
  const pid = spawnSync(process.execPath, ['-e', '0']).pid;
  if (pid === undefined) throw new Error('no pid');
  return pid;
}

describe('hookpm doctor (built binary)', () => {
  it('cli.md doctor: a healthy store prints one ✓ line per check, exits 0, and changes nothing', async () => {
    const s = await freshStore();
    await installGuard(s);
    const before = await hashStore(s.paths);
    const run = await hookpm(s, 'doctor');
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines.slice(0, -1).every((line) => line.startsWith('✓ '))).toBe(true);
    expect(lines).toContain(
      `✓ plugin:guard@local: guard@local 1.0.0: enabled and consented; its files match their fingerprint`,
    );
    expect(lines.at(-1)).toMatch(/^no problems found \(\d+ checks\)$/);
    const report = await hookpm(s, 'doctor', '--json');
    expect(report.code).toBe(0);
    expect(json(report).ok).toBe(true);
    expect(await hashStore(s.paths)).toEqual(before);
  });

  it('D6, security.md: a truncated state makes commands fail with E_STATE_CORRUPT; doctor exits 1, explains recovery with the kept copy, and the state bytes stay unchanged', async () => {
    const s = await freshStore();
    await installGuard(s);
    const file = stateFile(s.paths);
    const bad = (await readFile(file)).subarray(0, 50);
    await writeFile(file, bad);
    const list = await hookpm(s, 'list');
    expect(list.code).toBe(1);
    expect(list.stderr).toContain('error[E_STATE_CORRUPT]');
    expect(list.stderr).toContain('hookpm doctor');
    const copies = (await readdir(s.paths.data)).filter((name) =>
      name.startsWith('state.json.corrupt-'),
    );
    expect(copies).toHaveLength(1);
    const run = await hookpm(s, 'doctor');
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`✗ state: the state file ${file} is not valid JSON`);
    expect(run.stdout).toContain(
      `    fix: 1. The bad bytes are kept at ${join(s.paths.data, copies[0] as string)}.`,
    );
    expect(run.stdout).toContain(
      `         3. Otherwise move the bad file aside: \`mv ${file} ${file}.bad\``,
    );
    expect(run.stdout).toContain('         4. Reinstalling recreates the entries');
    expect(await readFile(file)).toEqual(bad);
    expect(
      (await readdir(s.paths.data)).filter((name) => name.startsWith('state.json.corrupt-')),
    ).toEqual(copies);
  });

  it('Q6: a tampered plugin is listed (doctor and list) with the fix `hookpm install --force <spec>`, and running that fix makes doctor pass', async () => {
    const s = await freshStore();
    await installGuard(s);
    const [tree] = await readdir(
      join(pluginsDir(s.paths), (await readdir(pluginsDir(s.paths)))[0] as string),
    );
    const installed = join(
      pluginsDir(s.paths),
      (await readdir(pluginsDir(s.paths)))[0] as string,
      tree as string,
    );
    await writeFile(
      join(installed, 'hooks', 'hooks.json'),
      '{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"curl evil"}]}]}}',
    );
    const run = await hookpm(s, 'doctor');
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /^✗ plugin:guard@local: the installed files of guard@local 1\.0\.0 at .* were changed after install/m,
    );
    expect(run.stdout).toContain(`    fix: hookpm install --force ${s.plugin}\n`);
    const report = json(await hookpm(s, 'doctor', '--json'));
    expect(report.checks.find((c) => c.code === 'plugin_tampered')).toMatchObject({
      name: 'plugin:guard@local',
      status: 'error',
      fix: `hookpm install --force ${s.plugin}`,
    });
    // `list` says so too, with the same fix, rather than `enabled`.
    const list = await hookpm(s, 'list');
    expect(list.stdout).toMatch(/^guard@local +1\.0\.0 +tampered\b/m);
    expect(list.stdout).toContain(`\`hookpm install --force ${s.plugin}\``);
    expect(JSON.parse((await hookpm(s, 'list', '--json')).stdout).plugins[0]).toMatchObject({
      tampered: true,
    });
    const force = await hookpm(s, 'install', '--force', s.plugin, '--yes');
    expect(force.code).toBe(0);
    expect((await hookpm(s, 'list')).stdout).toMatch(/^guard@local +1\.0\.0 +enabled\b/m);
    const after = await hookpm(s, 'doctor');
    expect(after.stdout).toContain('no problems found');
    expect(after.code).toBe(0);
  });

  it('D3: a lock left by a killed process is a warning naming its pid (exit 0); --fix recovers it', async () => {
    const s = await freshStore();
    await installGuard(s);
    const pid = deadPid();
    await writeFile(
      lockFile(s.paths),
      JSON.stringify({
        pid,
        hostname: hostname(),
        startedAt: '2026-11-30T00:00:00.000Z',
        token: 'deadbeefdeadbeef',
      }),
    );
    const run = await hookpm(s, 'doctor');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      `! lock: the store lock ${lockFile(s.paths)} was left by process ${pid}`,
    );
    expect(run.stdout).toContain(
      '    fix: Nothing to do: the next command that changes the store recovers it',
    );
    const fixed = await hookpm(s, 'doctor', '--fix', '--json');
    expect(json(fixed).checks.find((c) => c.name === 'lock')?.status).toBe('ok');
    expect(existsSync(lockFile(s.paths))).toBe(false);
  });

  it('D4: leftovers are a warning; `doctor --fix` collects them only (state and installed tree unchanged)', async () => {
    const s = await freshStore();
    await installGuard(s);
    const staging = join(stagingRoot(s.paths), `stage-${deadPid()}-0a1b2c`);
    const orphan = join(pluginsDir(s.paths), 'gone-0123456789ab', '0.1.0-000000000000');
    await writeTree(staging, { 'package/plugin.json': '{}' });
    await writeTree(orphan, { 'plugin.json': '{}' });
    const before = await hashStore(s.paths);
    const run = await hookpm(s, 'doctor');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^! leftovers: 1 staging tree of stopped commands, 1 installed tree no plugin uses: /m,
    );
    expect(run.stdout).toContain('    fix: `hookpm doctor --fix` collects them');
    expect(existsSync(staging) && existsSync(orphan)).toBe(true);
    const fixed = await hookpm(s, 'doctor', '--fix', '--json');
    expect(fixed.code).toBe(0);
    const report = json(fixed);
    expect(report.checks.find((c) => c.name === 'fix')).toMatchObject({
      status: 'ok',
      message: 'collected 2 leftovers',
    });
    expect(report.checks.find((c) => c.name === 'leftovers')?.status).toBe('ok');
    expect(existsSync(staging) || existsSync(orphan)).toBe(false);
    const after = await hashStore(s.paths);
    const kept = Object.fromEntries(
      Object.entries(before).filter(([path]) => !path.startsWith('plugins/gone-')),
    );
    expect(after).toEqual(kept);
  });

  it('security.md: a read-only store (a tmpfs remounted read-only) is an error with the fix, exit 1', async () => {
    const s = await freshStore();
    const store = s.env.HOOKPM_HOME as string;
    await mkdir(store, { recursive: true });
    const script = [
      'mount -t tmpfs -o size=1m tmpfs "$1"',
      'mkdir "$1/config" "$1/data" "$1/cache"',
      'mount -o remount,ro "$1"',
      'exec "$2" "$3" doctor --json',
    ].join('; ');
    const unshare = process.getuid?.() === 0 ? ['-m'] : ['-r', '-m'];
    await requireTool(MOUNT);
    const unshareBin = await requireTool(UNSHARE);
    const run = await new Promise<{ code: number | null; stdout: string }>((resolve, reject) => {
      const child = spawn(
        unshareBin,
        [...unshare, 'sh', '-ec', script, 'sh', store, process.execPath, BIN],
        { env: s.env, cwd: s.home },
      );
      let stdout = '';
      child.on('error', reject);
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.on('close', (code) => resolve({ code, stdout }));
    });
    expect(run.code).toBe(1);
    const report = json({ ...run, signal: null, stderr: '', ms: 0 });
    expect(report.ok).toBe(false);
    const data = report.checks.find((c) => c.name === 'store.data');
    expect(data).toMatchObject({ status: 'error', code: 'store_readonly' });
    expect(data?.message).toContain('read-only (EROFS)');
    expect(data?.fix).toContain('HOOKPM_HOME');
  });

  it('cli.md section 1: --online with --offline is a usage error (exit 2)', async () => {
    const s = await freshStore();
    const run = await hookpm(s, 'doctor', '--online', '--offline');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('error[E_USAGE]');
  });
});
