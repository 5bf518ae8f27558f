import { spawn, spawnSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../helpers/built-bin.js';
import { startPluginRegistry, type ServedRegistry } from '../helpers/plugin-registry.js';

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
  await writeFile(join(tmp, 'builtins.cjs'), BUILTINS_PRELOAD);
  hooksFile = join(tmp, 'hooks.json');
  const hooks = { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo done' }] }] } };
  await writeFile(hooksFile, JSON.stringify(hooks));
}, 60_000);

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

/** The environment of a run of the package's hookpm on `home`, with the logs it is to write. */
function runEnv(
  home: string,
  logs: Record<string, string | undefined>,
): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {
    ...process.env,
    HOME: tmp,
    HOOKPM_HOME: home,
    NO_COLOR: '1',
  };
  for (const [name, file] of Object.entries(logs)) if (file !== undefined) env[name] = file;
  return env;
}

/**
 * Runs the package's bin/hookpm.js, with `input` on its stdin. With `loaded`, a preload script
 * records in that file every file of dist/ the run requires; with `compiled`, every file of dist/
 * the run compiles, by Node's loader or with node:vm (the chunks compiled through their cache).
 */
function hookpm(
  args: string[],
  home: string,
  opts: { loaded?: string; compiled?: string; input?: string } = {},
): { code: number | null; stdout: string; stderr: string } {
  const env = runEnv(home, { LOADED_LOG: opts.loaded, COMPILED_LOG: opts.compiled });
  const logged = opts.loaded !== undefined || opts.compiled !== undefined;
  const preload = logged ? ['--require', join(tmp, 'loaded.cjs')] : [];
  const run = spawnSync(process.execPath, [...preload, join(pkg, 'bin', 'hookpm.js'), ...args], {
    env,
    cwd: tmp,
    encoding: 'utf8',
    ...(opts.input === undefined ? {} : { input: opts.input }),
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/**
 * Logs each file of the package's dist/ that a run requires (LOADED_LOG), and each one it
 * compiles, through Node's loader or node:vm's Script (COMPILED_LOG) (test/cli/run-bundle.test.ts).
 */
const LOADED_PRELOAD = `
const Module = require('node:module');
const vm = require('node:vm');
const { appendFileSync } = require('node:fs');
const load = Module._load;
Module._load = function (request, parent, isMain) {
  const path = Module._resolveFilename(request, parent, isMain);
  if (process.env.LOADED_LOG && path.includes('/dist/'))
    appendFileSync(process.env.LOADED_LOG, path + '\\n');
  return load.apply(this, arguments);
};
const compile = Module.prototype._compile;
Module.prototype._compile = function (content, filename) {
  if (process.env.COMPILED_LOG && filename.includes('/dist/'))
    appendFileSync(process.env.COMPILED_LOG, filename + '\\n');
  return compile.apply(this, arguments);
};
const Script = vm.Script;
vm.Script = class extends Script {
  constructor(source, options) {
    super(source, options);
    if (process.env.COMPILED_LOG && options && options.filename)
      appendFileSync(process.env.COMPILED_LOG, options.filename + '\\n');
  }
};
`;

/**
 * The chunk names (`main`, `zod`, ... without their hashes) of a home's chunk caches, a
 * provisional one's with ` (provisional)` after it.
 */
function chunkNames(caches: Map<string, number>): string[] {
  return [...caches.keys()]
    .map((name) =>
      name.replace(/(-[\w-]{8})?\.cjs(\.provisional)?\.bin$/, (_, _hash, p) =>
        p === undefined ? '' : ' (provisional)',
      ),
    )
    .sort();
}

/** Writes the names of Node's own modules the run loaded (`node:` ones and internal ones) to BUILTINS_LOG as it exits. */
const BUILTINS_PRELOAD = `
process.on('exit', () => {
  const names = process.moduleLoadList.filter((m) => m.startsWith('NativeModule '));
  require('node:fs').writeFileSync(process.env.BUILTINS_LOG, names.map((m) => m.slice(13)).join('\\n'));
});
`;

/**
 * Like hookpm(), without blocking this process (which serves the registry). With `builtins`, that
 * file receives the names of Node's modules the run loaded.
 */
function hookpmAsync(
  args: string[],
  home: string,
  opts: { builtins?: string } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env = runEnv(home, { BUILTINS_LOG: opts.builtins });
  const preload = opts.builtins === undefined ? [] : ['--require', join(tmp, 'builtins.cjs')];
  const child = spawn(process.execPath, [...preload, join(pkg, 'bin', 'hookpm.js'), ...args], {
    env,
    cwd: tmp,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/**
 * Serves a registry `acme` on 127.0.0.1, adds it to `home` with the package's hookpm (which must
 * succeed), runs `use`, and stops serving.
 */
async function withAddedRegistry(
  home: string,
  use: (registry: ServedRegistry, home: string) => Promise<void>,
): Promise<void> {
  const registry = await startPluginRegistry('acme');
  try {
    const added = await hookpmAsync(['registry', 'add', 'acme', registry.url], home);
    expect(added.code, added.stderr).toBe(0);
    await use(registry, home);
  } finally {
    await registry.close();
  }
}

/** The chunk caches of a home (`<cache>/code-cache/<node>-<arch>/`), by name, with their mtimes. */
function cachesOf(home: string): Map<string, number> {
  const dir = join(home, 'cache', 'code-cache', `${process.version}-${process.arch}`);
  if (!existsSync(dir)) return new Map();
  return new Map(readdirSync(dir).map((name) => [name, statSync(join(dir, name)).mtimeMs]));
}

describe('bin/hookpm.js and the chunks of dist/bundle/', () => {
  it('STYLE start-up cost: the CLI runs from the bundle, and `list` compiles none of the chunks of commander, zod, undici (http-client) or the install pipeline', async () => {
    const home = join(tmp, 'home-chunks');
    const log = join(tmp, 'loaded-list.log');
    const listedRun = hookpm(['list', '--json'], home, { loaded: log });
    expect(listedRun.code, listedRun.stderr).toBe(0);
    expect(JSON.parse(listedRun.stdout)).toEqual({ schemaVersion: 1, plugins: [] });
    // Node's loader reads bin/hookpm.js, the entry and its own imports, nothing else of dist/.
    const text = await readFile(log, 'utf8');
    expect(text).toContain('/dist/bundle/entry.cjs');
    expect(text.split('\n').filter((l) => l !== '' && !l.includes('/dist/bundle/'))).toEqual([]);
    // Every chunk the run compiled after the entry has a cache now.
    const compiled = chunkNames(cachesOf(home));
    expect(compiled).toContain('fast-path');
    expect(compiled).toContain('render-list');
    for (const heavy of ['main', 'zod', 'http-client', 'install', 'semver'])
      expect(compiled).not.toContain(heavy);
    // A command the fast paths do not answer goes to the full CLI (commander's chunk).
    const validated = hookpm(['validate', hooksFile, '--json'], home);
    expect(validated.code, validated.stderr).toBe(0);
    expect(chunkNames(cachesOf(home))).toContain('main');
  });

  it("STYLE start-up cost: each chunk runs once in a run: the entry, which holds every module a start runs and which Node's loader runs before the code cache is installed, is the instance the later chunks get, not compiled again", async () => {
    const home = join(tmp, 'home-once');
    const compiled = join(tmp, 'compiled-list.log');
    const listed = hookpm(['list', '--json'], home, { compiled });
    expect(listed.code, listed.stderr).toBe(0);
    const files = (await readFile(compiled, 'utf8')).split('\n').filter((l) => l !== '');
    const bundle = join(pkg, 'dist', 'bundle');
    const entry = join(bundle, 'entry.cjs');
    // The entry holds its static imports (stdio, the store's paths, ...) rather than requiring
    // them: at most rolldown's runtime beside it.
    const text = await readFile(entry, 'utf8');
    const imports = [...text.matchAll(/^const \w+ = require\("\.\/([^"]+)"\);$/gm)].map(
      (m) => m[1],
    );
    expect(imports.filter((chunk) => !chunk.startsWith('rolldown-runtime-'))).toEqual([]);
    expect(text).toContain('function writeText(');
    expect(text).toContain('function resolveStorePaths(');
    // Chunks the run compiled after it require the entry for those modules...
    const requiring = files.filter(
      (file) => file !== entry && readFileSync(file, 'utf8').includes('require("./entry.cjs")'),
    );
    expect(requiring.length).toBeGreaterThan(0);
    // ... and get the instance Node's loader ran: every file compiled once.
    expect(files).toContain(entry);
    expect(files.length).toBeGreaterThan(5);
    expect(files.filter((file, at) => files.indexOf(file) !== at)).toEqual([]);
  });

  it('STYLE start-up cost: the first run of a command writes the V8 code cache of each chunk it compiled, the next reuses them and writes none, and caches of chunks the bundle no longer has are removed', async () => {
    const home = join(tmp, 'home-cache');
    const dir = join(home, 'cache', 'code-cache', `${process.version}-${process.arch}`);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'gone-0123abcd.cjs.bin'), 'a chunk of an older build');
    const first = hookpm(['validate', hooksFile, '--json'], home);
    expect(first.code, first.stderr).toBe(0);
    const written = cachesOf(home);
    const bundle = readdirSync(join(pkg, 'dist', 'bundle'));
    expect([...written.keys()].every((name) => bundle.includes(name.replace(/\.bin$/, '')))).toBe(
      true,
    );
    expect(written.size).toBeGreaterThan(10);
    expect(written.has('gone-0123abcd.cjs.bin')).toBe(false);
    // V8 accepts a cache for any source of the same length: a chunk compiled through one (all but
    // the entry, which Node's own loader compiles) holds a hash of its content in its name.
    expect(bundle.filter((name) => !/-[\w-]{8}\.cjs$/.test(name))).toEqual(['entry.cjs']);
    const second = hookpm(['validate', hooksFile, '--json'], home);
    expect(second.stdout).toBe(first.stdout);
    // Accepted by V8, so none is written again.
    expect(cachesOf(home)).toEqual(written);
  });

  it('STYLE start-up cost: commands that went to the network (WebAssembly tier-up turned off, src/cli/start/wasm-tier-up.ts) make caches that runs on and off the network accept', async () => {
    await withAddedRegistry(join(tmp, 'home-network'), async (registry, home) => {
      expect(registry.requests).toContain('/index.json');
      const afterAdd = cachesOf(home);
      expect(afterAdd.size).toBeGreaterThan(10);
      const updated = await hookpmAsync(['registry', 'update', 'acme'], home);
      expect(updated.code, updated.stderr).toBe(0);
      expect(registry.requests.length).toBeGreaterThan(1);
      // Another network run rewrote none of the caches the first one made (V8 accepted them).
      for (const [name, mtime] of afterAdd) expect(cachesOf(home).get(name), name).toBe(mtime);
      const before = cachesOf(home);
      const listed = hookpm(['registry', 'list', '--json'], home);
      expect(listed.code, listed.stderr).toBe(0);
      expect(listed.stdout).toContain('"acme"');
      // Nor did a run off the network, with V8's default flags.
      for (const [name, mtime] of before) expect(cachesOf(home).get(name), name).toBe(mtime);
    });
  });

  it("STYLE start-up cost: a command that goes to the network loads none of Node's modules it does not use: not node:http2 or node:tls (no HTTP/2, no TLS to a loopback registry), node:crypto (nothing to hash), node:child_process (no subcommand runs), nor Node's own copy of undici; nor the chunks of a review or a prompt", async () => {
    await withAddedRegistry(join(tmp, 'home-builtins'), async (registry, home) => {
      const log = join(tmp, 'builtins.log');
      const updated = await hookpmAsync(['registry', 'update', 'acme'], home, { builtins: log });
      expect(updated.code, updated.stderr).toBe(0);
      expect(registry.requests.filter((path) => path === '/index.json')).toHaveLength(2);
      const loaded = (await readFile(log, 'utf8')).split('\n');
      // Loaded: the run did go to the network, with undici's HTTP/1.1 client.
      expect(loaded).toContain('net');
      expect(loaded).toContain('http');
      for (const name of ['http2', 'tls', 'crypto', 'child_process', 'internal/deps/undici/undici'])
        expect(loaded, name).not.toContain(name);
      // Nor did either run compile the chunks of what it does not show: a plugin's review, a prompt.
      const compiled = chunkNames(cachesOf(home));
      expect(compiled).toContain('main');
      for (const unused of ['render-review', 'prompt-trust'])
        expect(compiled).not.toContain(unused);
    });
  });

  it('plugins.md G1, STYLE start-up cost: an install where no Claude Code settings file exists refreshes no link and compiles none of the link step (the settings editor with jsonc-parser, the link)', async () => {
    const home = join(tmp, 'home-no-claude');
    const plugin = join(tmp, 'plugin-no-claude');
    await mkdir(join(plugin, 'hooks'), { recursive: true });
    await writeFile(
      join(plugin, 'plugin.json'),
      JSON.stringify({ name: 'quiet', version: '1.0.0' }),
    );
    const hooks = { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'true' }] }] } };
    await writeFile(join(plugin, 'hooks', 'hooks.json'), JSON.stringify(hooks));
    expect(existsSync(join(tmp, '.claude'))).toBe(false);
    const installed = hookpm(['install', plugin, '--yes'], home);
    expect(installed.code, installed.stderr).toBe(0);
    expect(installed.stderr).not.toContain('relinked');
    const compiled = chunkNames(cachesOf(home));
    expect(compiled).toContain('relink-claude');
    for (const unused of ['settings-text', 'link']) expect(compiled).not.toContain(unused);
  });

  it("X10: a linked event answered from its session's pin compiles the wire bundle's core chunk only; the session's first event, which makes the pin, compiles the other one too", async () => {
    const home = join(tmp, 'home-wire');
    const event = (name: string, extra: Record<string, unknown>) =>
      JSON.stringify({
        session_id: '5e551011-0000-4000-8000-0000000000b1',
        transcript_path: join(tmp, 't.jsonl'),
        cwd: tmp,
        hook_event_name: name,
        ...extra,
      });
    const wire = (input: string) => hookpm(['wire', 'claude'], home, { input });
    const started = wire(event('SessionStart', { source: 'startup' }));
    expect(started.code, started.stderr).toBe(0);
    expect(chunkNames(cachesOf(home))).toEqual(
      expect.arrayContaining(['wire-core (provisional)', 'wire-more']),
    );
    await rm(join(home, 'cache', 'code-cache'), { recursive: true });
    const pinned = wire(event('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' } }));
    expect(pinned.code, pinned.stderr).toBe(0);
    const compiled = chunkNames(cachesOf(home));
    expect(compiled).toContain('wire-core');
    expect(compiled).not.toContain('wire-more');
  });

  it("X10, STYLE start-up cost: the build fails, naming the chunk, when zod's code would land in the chunk every linked event loads (wire-core) or every command loads (entry), and leaves the bundle in place", async () => {
    const dist = join(pkg, 'dist');
    const files = [
      join(dist, 'cli', 'start', 'wire-entry.js'),
      join(dist, 'cli', 'start', 'entry.js'),
    ];
    const kept = await Promise.all(
      files.map(async (file) => ({
        file,
        text: await readFile(file, 'utf8'),
        stat: statSync(file),
      })),
    );
    const bundle = readdirSync(join(dist, 'bundle')).sort();
    try {
      // An `import()` not listed in WIRE_MORE joins the chunk of its importer; a static import
      // of the CLI's entry joins the entry.
      await writeFile(files[0]!, `${kept[0]!.text}\nexport const later = () => import('zod');\n`);
      await writeFile(
        files[1]!,
        `import { z } from 'zod';\nexport const Z = z.string();\n${kept[1]!.text}`,
      );
      const built = spawnSync(process.execPath, [join(pkg, 'test', 'tools', 'bundle-cli.mjs')], {
        encoding: 'utf8',
      });
      expect(built.status).toBe(1);
      expect(built.stderr).toMatch(
        /zod's code is in wire-core-[\w-]{8}\.cjs \(every linked event\) and entry\.cjs \(every command\)/,
      );
    } finally {
      for (const { file, text, stat } of kept) {
        await writeFile(file, text);
        await utimes(file, stat.atime, stat.mtime);
      }
    }
    expect(readdirSync(join(dist, 'bundle')).sort()).toEqual(bundle);
    expect(readdirSync(dist).filter((name) => name.startsWith('bundle.'))).toEqual([]);
  }, 60_000);

  it("X10, STYLE start-up cost: the caches a session's first event makes of the chunks the later events run are provisional; the first later event makes them again, with what it ran, and the next one rewrites none", () => {
    const home = join(tmp, 'home-wire-provisional');
    const event = (name: string, extra: Record<string, unknown>) =>
      JSON.stringify({
        session_id: '5e551011-0000-4000-8000-0000000000b2',
        transcript_path: join(tmp, 't.jsonl'),
        cwd: tmp,
        hook_event_name: name,
        ...extra,
      });
    const wire = (input: string) => hookpm(['wire', 'claude'], home, { input });
    const later = event('PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' } });
    expect(wire(event('SessionStart', { source: 'startup' })).code).toBe(0);
    const first = cachesOf(home);
    expect(chunkNames(first)).toEqual(['wire-core (provisional)', 'wire-more']);
    expect(wire(later).code).toBe(0);
    const made = cachesOf(home);
    // The final cache replaces the provisional one; wire-more's, accepted, is not written again.
    expect(chunkNames(made)).toEqual(['wire-core', 'wire-more']);
    const more = [...first.keys()].find((name) => name.startsWith('wire-more-'))!;
    expect(made.get(more)).toBe(first.get(more));
    expect(wire(later).code).toBe(0);
    expect(cachesOf(home)).toEqual(made);
    // Another session's first event keeps using the final cache, and writes no provisional one.
    const other = event('SessionStart', { source: 'startup' }).replace('00b2', '00b3');
    expect(wire(other).code).toBe(0);
    expect(cachesOf(home)).toEqual(made);
  });

  it('registry.md D1: the code cache goes to the cache directory of --home, which wins over HOOKPM_HOME', () => {
    const env = join(tmp, 'home-env');
    const flag = join(tmp, 'home-flag');
    expect(hookpm(['--home', flag, 'validate', hooksFile], env).code).toBe(0);
    expect(cachesOf(flag).size).toBeGreaterThan(10);
    expect(existsSync(join(env, 'cache'))).toBe(false);
  });

  it('STYLE start-up cost: a bundle older than dist/cli/start/entry.js (tsc ran since) is not run; the compiled modules give the same answer', async () => {
    const viaBundle = hookpm(['validate', hooksFile, '--json'], join(tmp, 'home-a'));
    const later = new Date(Date.now() + 60_000);
    await utimes(join(pkg, 'dist', 'cli', 'start', 'entry.js'), later, later);
    const log = join(tmp, 'loaded-compiled.log');
    const home = join(tmp, 'home-b');
    const viaModules = hookpm(['validate', hooksFile, '--json'], home, { loaded: log });
    expect(viaModules.stdout).toEqual(viaBundle.stdout);
    expect(viaModules.code).toBe(0);
    expect(await readFile(log, 'utf8').catch(() => '')).not.toContain('/dist/bundle/');
    expect(cachesOf(home).size).toBe(0);
  });
});
