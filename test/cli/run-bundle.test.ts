import { spawn, spawnSync } from 'node:child_process';
import {
  cp,
  mkdir,
  mkdtemp,
  readdir,
  rm,
  stat,
  symlink,
  utimes,
  writeFile,
} from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/built-bin.js';
import { startPluginRegistry } from '../helpers/plugin-registry.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * A private copy of the package (bin/, dist/ as tsc wrote it, package.json; node_modules and
 * registry-fixtures linked) with its own bundle, so that touching its files cannot disturb others.
 */
let tmp: string;
let pkg: string;
let hooksFile: string;

beforeAll(async () => {
  ensureBuilt();
  tmp = await mkdtemp(join(tmpdir(), 'hookpm-run-bundle-'));
  pkg = join(tmp, 'pkg');
  await mkdir(pkg);
  for (const name of ['bin', join('test', 'tools'), 'package.json'])
    await cp(join(ROOT, name), join(pkg, name), { recursive: true });
  await cp(join(ROOT, 'dist'), join(pkg, 'dist'), {
    recursive: true,
    filter: (source) => !source.startsWith(join(ROOT, 'dist', 'bundle')),
  });
  await symlink(join(ROOT, 'node_modules'), join(pkg, 'node_modules'));
  await symlink(join(ROOT, 'registry-fixtures'), join(pkg, 'registry-fixtures'));
  const built = spawnSync(process.execPath, [join(pkg, 'test', 'tools', 'bundle-cli.mjs')], {
    encoding: 'utf8',
  });
  expect(built.status, built.stderr).toBe(0);
  hooksFile = join(tmp, 'hooks.json');
  const hooks = { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo done' }] }] } };
  await writeFile(hooksFile, JSON.stringify(hooks));
}, 60_000);

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

function hookpm(args: string[], home: string): { code: number | null; stdout: string } {
  const env = { ...process.env, HOME: tmp, HOOKPM_HOME: home, NO_COLOR: '1' };
  const run = spawnSync(process.execPath, [join(pkg, 'bin', 'hookpm.js'), ...args], {
    env,
    cwd: tmp,
    encoding: 'utf8',
  });
  return { code: run.status, stdout: run.stdout };
}

/** The content hash on the last line of a script of dist/bundle/. */
function hashOf(script: string): string {
  const text = readFileSync(join(pkg, 'dist', 'bundle', script), 'latin1');
  const hash = /\/\/# hookpm-bundle ([0-9a-f]{16})\n$/.exec(text)?.[1];
  if (hash === undefined) throw new Error(`${script} does not end with its hash`);
  return hash;
}

/** Like hookpm(), without blocking this process (which serves the registry). */
function hookpmAsync(
  args: string[],
  home: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env = { ...process.env, HOME: tmp, HOOKPM_HOME: home, NO_COLOR: '1' };
  const child = spawn(process.execPath, [join(pkg, 'bin', 'hookpm.js'), ...args], {
    env,
    cwd: tmp,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/** The names in `dir`, sorted; none when it does not exist. */
async function listed(dir: string): Promise<string[]> {
  return (await readdir(dir).catch(() => [] as string[])).sort();
}

describe('bin/hookpm.js and the scripts of dist/bundle/', () => {
  it('STYLE start-up cost: the CLI runs from the bundle, whose V8 code cache is written by the first run of a command (replacing those of other builds) and reused by the next', async () => {
    const home = join(tmp, 'home-bundle');
    const cacheDir = join(home, 'cache', 'code-cache');
    // The caches of another build of the CLI's script, and one named before scripts had names:
    // removed when this build's cache is written. One of the undici script stays (it is removed
    // when that script's cache is written).
    await mkdir(cacheDir, { recursive: true });
    const tail = `-${process.version}-x64-validate.bin`;
    for (const old of [
      `cli-0123456789abcdef${tail}`,
      `0123456789abcdef${tail}`,
      `undici-0123456789abcdef${tail}`,
    ])
      await writeFile(join(cacheDir, old), 'old');
    const first = hookpm(['validate', hooksFile, '--json'], home);
    expect(first.code).toBe(0);
    const name = `cli-${hashOf('cli.cjs')}-${process.version}-${process.arch}-validate.bin`;
    expect(await listed(cacheDir)).toEqual([name, `undici-0123456789abcdef${tail}`]);
    const written = (await stat(join(cacheDir, name))).mtimeMs;
    const second = hookpm(['validate', hooksFile, '--json'], home);
    expect(second).toEqual(first);
    // Accepted by V8, so not written again; nothing else is left in the directory.
    expect((await stat(join(cacheDir, name))).mtimeMs).toBe(written);
    expect(await listed(cacheDir)).toEqual([name, `undici-0123456789abcdef${tail}`]);
  });

  it('STYLE start-up cost: undici is a script of its own, run (through its own code cache) only by a command that goes to the network, whose CLI cache a later run that does not go there replaces', async () => {
    const registry = await startPluginRegistry('acme');
    try {
      const home = join(tmp, 'home-network');
      const cacheDir = join(home, 'cache', 'code-cache');
      expect(hookpm(['validate', hooksFile], home).code).toBe(0);
      expect((await listed(cacheDir)).filter((n) => n.startsWith('undici-'))).toEqual([]);
      const added = await hookpmAsync(['registry', 'add', 'acme', registry.url], home);
      expect(added.code, added.stderr).toBe(0);
      expect(registry.requests).toContain('/index.json');
      // Written by a run that went to the network: named .net.bin (it lacks what a run that
      // does not go there compiles).
      const tail = `${process.version}-${process.arch}-registry`;
      const cli = `cli-${hashOf('cli.cjs')}-${tail}`;
      const undici = `undici-${hashOf('undici.cjs')}-${tail}.net.bin`;
      expect(await listed(cacheDir)).toEqual(expect.arrayContaining([`${cli}.net.bin`, undici]));
      // Another network command of the same kind reuses both and writes nothing: V8 accepts
      // them, although the runs turn WebAssembly tier-up off once undici is loaded (a cache
      // made under other flags is rejected; src/cli/wasm-tier-up.ts).
      const modified = async (): Promise<number[]> => [
        (await stat(join(cacheDir, `${cli}.net.bin`))).mtimeMs,
        (await stat(join(cacheDir, undici))).mtimeMs,
      ];
      const written = await modified();
      const updated = await hookpmAsync(['registry', 'update', 'acme'], home);
      expect(updated.code, updated.stderr).toBe(0);
      expect(await modified()).toEqual(written);
      // The first one that stays off the network replaces it with the cache of both paths.
      expect(hookpm(['registry', 'list'], home).code).toBe(0);
      const after = await listed(cacheDir);
      expect(after).toContain(`${cli}.bin`);
      expect(after).not.toContain(`${cli}.net.bin`);
      expect(after).toContain(undici);
    } finally {
      await registry.close();
    }
  });

  it('STYLE start-up cost: no module is copied into an ES namespace as a script starts, and semver comes function by function (bundle-cli.mjs plainNamespaces, src/registry/semver.ts)', () => {
    const text = (script: string): string =>
      readFileSync(join(pkg, 'dist', 'bundle', script), 'latin1');
    for (const script of ['start.cjs', 'fast.cjs', 'cli.cjs']) {
      // `x = __toESM(x, 1);` or `import_x = __toESM(require_x(), 1);`: a getter per member.
      expect(text(script)).not.toMatch(/^\s*[\w$]+ = __toESM\(/m);
    }
    // semver's index requires every module of the package, ranges/subset.js among them.
    expect(text('fast.cjs')).toMatch(/require_valid\b/);
    expect(text('fast.cjs')).not.toMatch(/require_subset\b/);
  });

  it('registry.md D1: the code cache goes to the cache directory of --home, which wins over HOOKPM_HOME', async () => {
    const env = join(tmp, 'home-env');
    const flag = join(tmp, 'home-flag');
    expect(hookpm(['--home', flag, 'validate', hooksFile], env).code).toBe(0);
    expect(await listed(join(flag, 'cache', 'code-cache'))).toHaveLength(1);
    expect(await listed(join(env, 'cache', 'code-cache'))).toEqual([]);
  });

  it('STYLE start-up cost: a bundle older than dist/cli/entry.js (tsc ran since) is not run; the compiled modules give the same answer', async () => {
    const viaBundle = hookpm(['validate', hooksFile, '--json'], join(tmp, 'home-a'));
    const later = new Date(Date.now() + 60_000);
    await utimes(join(pkg, 'dist', 'cli', 'entry.js'), later, later);
    const home = join(tmp, 'home-compiled');
    const viaModules = hookpm(['validate', hooksFile, '--json'], home);
    expect(viaModules).toEqual(viaBundle);
    expect(viaModules.code).toBe(0);
    expect(await listed(join(home, 'cache', 'code-cache'))).toEqual([]);
  });
});
