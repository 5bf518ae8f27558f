import { spawn, spawnSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
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
  await writeFile(join(tmp, 'loaded.cjs'), LOADED_PRELOAD);
  hooksFile = join(tmp, 'hooks.json');
  const hooks = { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo done' }] }] } };
  await writeFile(hooksFile, JSON.stringify(hooks));
}, 60_000);

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

/**
 * Runs the package's bin/hookpm.js. With `loaded`, a preload script records in that file every
 * file of dist/ the run requires; with `debug`, Node reports its compile cache on stderr.
 */
function hookpm(
  args: string[],
  home: string,
  opts: { loaded?: string; debug?: boolean } = {},
): { code: number | null; stdout: string; stderr: string } {
  const env: Record<string, string | undefined> = {
    ...process.env,
    HOME: tmp,
    HOOKPM_HOME: home,
    NO_COLOR: '1',
    ...(opts.debug === true ? { NODE_DEBUG_NATIVE: 'COMPILE_CACHE' } : {}),
    ...(opts.loaded === undefined ? {} : { LOADED_LOG: opts.loaded }),
  };
  const preload = opts.loaded === undefined ? [] : ['--require', join(tmp, 'loaded.cjs')];
  const run = spawnSync(process.execPath, [...preload, join(pkg, 'bin', 'hookpm.js'), ...args], {
    env,
    cwd: tmp,
    encoding: 'utf8',
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** Logs each file of the package's dist/ that a run requires (test/cli/run-bundle.test.ts). */
const LOADED_PRELOAD = `
const Module = require('node:module');
const { appendFileSync } = require('node:fs');
const load = Module._load;
Module._load = function (request, parent, isMain) {
  const path = Module._resolveFilename(request, parent, isMain);
  if (path.includes('/dist/')) appendFileSync(process.env.LOADED_LOG, path + '\\n');
  return load.apply(this, arguments);
};
`;

/** The chunk names (`main`, `zod`, ... without their hashes) a run with `loaded` required. */
async function chunksLoaded(log: string): Promise<string[]> {
  const text = await readFile(log, 'utf8').catch(() => '');
  const names = text
    .split('\n')
    .filter((line) => line.includes('/dist/bundle/'))
    .map((line) => line.slice(line.lastIndexOf('/') + 1).replace(/(-[\w-]{8})?\.cjs$/, ''));
  return [...new Set(names)].sort();
}

/** Node 22.1 and later keep a compile cache (module.enableCompileCache); Node 20 has none. */
const HAS_COMPILE_CACHE =
  typeof (createRequire(import.meta.url)('node:module') as { enableCompileCache?: unknown })
    .enableCompileCache === 'function';

/** Node's report (NODE_DEBUG_NATIVE=COMPILE_CACHE): the cached modules it accepted and rejected. */
function cacheReport(stderr: string): { accepted: number; rejected: string[] } {
  const lines = stderr.split('\n').filter((line) => line.startsWith('[compile cache]'));
  return {
    accepted: lines.filter((line) => / was accepted/.test(line)).length,
    rejected: lines.filter((line) => / was rejected| mismatch/i.test(line)),
  };
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

describe('bin/hookpm.js and the chunks of dist/bundle/', () => {
  it('STYLE start-up cost: the CLI runs from the bundle, and `list` requires none of the chunks of commander, zod, undici or the install pipeline', async () => {
    const home = join(tmp, 'home-chunks');
    const log = join(tmp, 'loaded-list.log');
    const listedRun = hookpm(['list', '--json'], home, { loaded: log });
    expect(listedRun.code, listedRun.stderr).toBe(0);
    expect(JSON.parse(listedRun.stdout)).toEqual({ plugins: [] });
    const chunks = await chunksLoaded(log);
    expect(chunks).toContain('entry');
    expect(chunks).toContain('fast-path');
    for (const heavy of ['main', 'zod', 'undici', 'install', 'semver'])
      expect(chunks).not.toContain(heavy);
    // Nothing of dist/ but the bundle: the compiled modules are not read.
    const text = await readFile(log, 'utf8');
    expect(text.split('\n').filter((l) => l !== '' && !l.includes('/dist/bundle/'))).toEqual([]);
    // A command the fast paths do not answer goes to the full CLI (commander's chunk).
    const validated = hookpm(['validate', hooksFile, '--json'], home, {
      loaded: join(tmp, 'v.log'),
    });
    expect(validated.code, validated.stderr).toBe(0);
    expect(await chunksLoaded(join(tmp, 'v.log'))).toContain('main');
  });

  it("STYLE start-up cost: on Node 22.1 and later the second run of a command takes its compiled code from Node's compile cache in the cache directory; Node 20 keeps none", () => {
    const home = join(tmp, 'home-cache');
    const first = hookpm(['validate', hooksFile, '--json'], home, { debug: true });
    expect(first.code, first.stderr).toBe(0);
    const second = hookpm(['validate', hooksFile, '--json'], home, { debug: true });
    expect(second.stdout).toBe(first.stdout);
    const cacheDir = join(home, 'cache', 'compile-cache');
    if (HAS_COMPILE_CACHE) {
      expect(cacheReport(first.stderr).accepted).toBe(0);
      const report = cacheReport(second.stderr);
      expect(report.rejected).toEqual([]);
      // The chunks the command loads after the cache is on: fast-path, main and what it needs.
      expect(report.accepted).toBeGreaterThan(5);
      expect(readdirNames(cacheDir)).toHaveLength(1);
    } else {
      expect(second.stderr).not.toContain('[compile cache]');
      expect(readdirNames(cacheDir)).toEqual([]);
    }
  });

  it('STYLE start-up cost: a command that went to the network (WebAssembly tier-up turned off, src/cli/start/wasm-tier-up.ts) leaves a compile cache that later runs accept', async () => {
    const registry = await startPluginRegistry('acme');
    try {
      const home = join(tmp, 'home-network');
      const added = await hookpmAsync(['registry', 'add', 'acme', registry.url], home);
      expect(added.code, added.stderr).toBe(0);
      expect(registry.requests).toContain('/index.json');
      const updated = await hookpmAsync(['registry', 'update', 'acme'], home);
      expect(updated.code, updated.stderr).toBe(0);
      // Off the network: the chunks the network runs cached (main, the registry commands).
      const after = hookpm(['registry', 'list', '--json'], home, { debug: true });
      expect(after.code, after.stderr).toBe(0);
      expect(after.stdout).toContain('"acme"');
      // A command that stays off the network, with V8's default flags: a cache of its own.
      expect(hookpm(['list', '--json'], home).code).toBe(0);
      if (HAS_COMPILE_CACHE) {
        const report = cacheReport(after.stderr);
        expect(report.rejected).toEqual([]);
        expect(report.accepted).toBeGreaterThan(5);
        expect(readdirNames(join(home, 'cache', 'compile-cache'))).toHaveLength(2);
        const again = hookpm(['list', '--json'], home, { debug: true });
        expect(cacheReport(again.stderr).rejected).toEqual([]);
      }
    } finally {
      await registry.close();
    }
  });

  it('registry.md D1: the compile cache goes to the cache directory of --home, which wins over HOOKPM_HOME', () => {
    const env = join(tmp, 'home-env');
    const flag = join(tmp, 'home-flag');
    expect(hookpm(['--home', flag, 'validate', hooksFile], env).code).toBe(0);
    expect(readdirNames(join(flag, 'cache', 'compile-cache'))).toHaveLength(
      HAS_COMPILE_CACHE ? 1 : 0,
    );
    expect(readdirNames(join(env, 'cache'))).toEqual([]);
  });

  it('STYLE start-up cost: a bundle older than dist/cli/start/entry.js (tsc ran since) is not run; the compiled modules give the same answer', async () => {
    const viaBundle = hookpm(['validate', hooksFile, '--json'], join(tmp, 'home-a'));
    const later = new Date(Date.now() + 60_000);
    await utimes(join(pkg, 'dist', 'cli', 'start', 'entry.js'), later, later);
    const log = join(tmp, 'loaded-compiled.log');
    const viaModules = hookpm(['validate', hooksFile, '--json'], join(tmp, 'home-b'), {
      loaded: log,
    });
    expect(viaModules.stdout).toEqual(viaBundle.stdout);
    expect(viaModules.code).toBe(0);
    expect(await chunksLoaded(log)).toEqual([]);
  });
});

/** The names in `dir`, sorted; none when it does not exist. */
function readdirNames(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).sort() : [];
}
