import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { homeStorePaths } from '../store/home-paths.js';
import { resolveStorePaths } from '../store/paths.js';
import { restoreWasmTierUp, stopWasmTierUp } from './wasm-tier-up.js';

/**
 * STYLE "Start-up cost": what bin/hookpm.js runs first. The build (test/tools/bundle-cli.mjs)
 * bundles this file alone into dist/bundle/start.cjs, a small CommonJS script, so a start loads no
 * ES module at all: Node's ES module loader costs about 10 ms (bench/install.bench.mjs).
 *
 * It answers `--version` itself; anything else runs dist/bundle/cli.cjs, the whole CLI
 * (src/cli/main.ts and everything it imports but undici) as one CommonJS module wrapper function,
 * compiled with V8's code cache so a start neither resolves ~200 modules nor recompiles the
 * functions it ran last time. `install`, `list` and `search` run dist/bundle/fast.cjs instead
 * (src/cli/fast-entry.ts: their fast paths only, less than half the text to read and compile),
 * which hands a line it does not answer to the full CLI. undici, which only a command that goes
 * to the network loads, is its own script, dist/bundle/undici.cjs, run the same way when a
 * script first requires it: the other caches then never hold the network code, which a later
 * command that needs no network would load for nothing (about 3 ms).
 *
 * A script's cache is `<hookpm cache dir>/code-cache/<script>-<hash>-<node>-<arch>-<command>.bin`
 * (one per command, since each caches the functions it ran), written atomically at the end of a
 * run of the command that exits with status 0 when there is none yet, V8 rejected it, or it was
 * written by a run that went to the network (see runScript); writing it removes the caches of
 * other builds of that script. Returns false, and runs nothing, when there
 * is no bundle or it is older than dist/cli/entry.js (a `tsc` run after the last full build):
 * bin/hookpm.js then runs the compiled modules of dist/.
 */
export function start(argv: readonly string[]): boolean {
  const args = argv.slice(2);
  if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
    const pkg = readFileSync(join(import.meta.dirname, '..', '..', 'package.json'), 'utf8');
    // Not process.stdout, which costs about 3 ms to make (cli/stdio.ts).
    writeSync(1, `${(JSON.parse(pkg) as { version: string }).version}\n`);
    return true;
  }
  const dir = join(import.meta.dirname, '..', 'bundle');
  const file = join(dir, 'cli.cjs');
  const compiled = join(import.meta.dirname, '..', 'cli', 'entry.js');
  const bundled = mtimeOf(file);
  if (bundled === undefined || bundled < (mtimeOf(compiled) ?? 0)) return false;
  let undici: unknown;
  const caches: Caches = {
    dir: codeCacheDir(argv),
    command: commandOf(argv),
    networked: () => undici !== undefined,
  };
  const require = (id: string): unknown => {
    if (id !== 'undici') return builtin(id);
    if (undici === undefined) {
      undici = runScript(join(dir, 'undici.cjs'), 'undici', caches, builtin);
      stopWasmTierUp();
    }
    return undici;
  };
  const full = (): Promise<void> => {
    const { main } = runScript(file, 'cli', caches, require) as { main?: unknown };
    if (typeof main !== 'function') throw new Error(`${file} does not export main`);
    return (main as (argv: readonly string[]) => Promise<void>)(argv);
  };
  if (!FAST_COMMANDS.has(caches.command)) {
    void full();
    return true;
  }
  const fast = join(dir, 'fast.cjs');
  const { main } = runScript(fast, 'fast', caches, require) as { main?: unknown };
  if (typeof main !== 'function') throw new Error(`${fast} does not export main`);
  void (main as (argv: readonly string[], fallback: () => Promise<void>) => Promise<void>)(
    argv,
    full,
  );
  return true;
}

/**
 * What a script's `require` gives: the scripts bundle everything but Node's own modules (and
 * undici, which start() answers), so this needs no module resolution at all.
 */
function builtin(id: string): unknown {
  const found = process.getBuiltinModule(id);
  if (found === undefined) throw new Error(`Assertion failed: a bundled script required ${id}`);
  return found;
}

/** The commands src/cli/fast-path.ts answers (their common forms), from dist/bundle/fast.cjs. */
const FAST_COMMANDS: ReadonlySet<string> = new Set(['install', 'list', 'search']);

/** Where a run's code caches are, and whether the run went to the network. */
interface Caches {
  dir: string;
  command: string;
  /** True once undici was loaded. */
  networked: () => boolean;
}

/**
 * Runs one bundled script (a CommonJS module wrapper function, test/tools/bundle-cli.mjs) through
 * its code cache and returns its exports.
 *
 * A cache holds the functions the run that wrote it compiled, so one written by a run that went
 * to the network (the first install of a plugin, which downloads it) lacks those of a run that
 * does not (a later one, from the caches of hookpm), which would then compile them at every start
 * (about 3 ms). Such a cache is named `<...>.net.bin` and used until a run that stays off the
 * network replaces it with `<...>.bin`, which holds both (the functions a run took from its cache
 * count as compiled).
 */
function runScript(
  file: string,
  name: string,
  caches: Caches,
  require: (id: string) => unknown,
): unknown {
  // ASCII only (test/tools/bundle-cli.mjs escapes the rest): latin1 reads it without UTF-8 decoding.
  const source = readFileSync(file, 'latin1');
  const hash = /\/\/# hookpm-bundle ([0-9a-f]+)\n$/.exec(source.slice(-64))?.[1];
  if (hash === undefined) throw new Error(`${file} does not end with its hash`);
  const build = `${name}-${hash}-`;
  const base = join(caches.dir, `${build}${process.version}-${process.arch}-${caches.command}`);
  const warm = readIfPresent(`${base}.bin`);
  const cachedData = warm ?? readIfPresent(`${base}.net.bin`);
  const script = new Script(source, {
    filename: file,
    ...(cachedData === undefined ? {} : { cachedData }),
  });
  const rejected = cachedData === undefined || script.cachedDataRejected === true;
  // Written at the end of a successful run, so it holds the functions a whole command compiled.
  if (rejected || warm === undefined)
    process.once('exit', (code) => {
      if (code !== 0) return;
      if (!caches.networked()) writeCache(`${base}.bin`, script, `${name}-`, build);
      else if (rejected) writeCache(`${base}.net.bin`, script, `${name}-`, build);
    });
  const module = { exports: {} as unknown };
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper(module.exports, require, module, file, dirname(file));
  return module.exports;
}

/** registry.md D1: the cache directory of `--home`, else of HOOKPM_HOME, else the platform one. */
function codeCacheDir(argv: readonly string[]): string {
  const at = argv.indexOf('--home');
  const given = argv.find((arg) => arg.startsWith('--home='))?.slice('--home='.length);
  const home = (at >= 2 ? argv[at + 1] : given) ?? process.env.HOOKPM_HOME;
  const paths = home !== undefined && home !== '' ? homeStorePaths(home) : resolveStorePaths({});
  return join(paths.cache, 'code-cache');
}

/** The command word (`install`, `registry`, ...), or `other`: only a cache key. */
function commandOf(argv: readonly string[]): string {
  return argv.slice(2).find((arg) => /^[a-z]+(-[a-z]+)*$/.test(arg) && arg.length <= 20) ?? 'other';
}

function mtimeOf(path: string): number | undefined {
  return statSync(path, { throwIfNoEntry: false })?.mtimeMs;
}

function readIfPresent(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

/**
 * Best effort: a read-only or full cache directory only costs the next start its compile time.
 * The caches of the script's other builds (`<script>-` not followed by this build's hash, left by
 * older builds or versions of hookpm) are removed, and so are files of the naming before scripts
 * had names; writing `<...>.bin` removes `<...>.net.bin`.
 */
function writeCache(path: string, script: Script, prefix: string, build: string): void {
  try {
    // A cache is tagged with V8's flags: made under the defaults, any run can use it.
    restoreWasmTierUp();
    const dir = dirname(path);
    mkdirSync(dir, { recursive: true });
    for (const name of readdirSync(dir)) {
      const unnamed = /^[0-9a-f]{16}-/.test(name);
      if (unnamed || (name.startsWith(prefix) && !name.startsWith(build)))
        rmSync(join(dir, name), { force: true });
    }
    const scratch = `${path}.${process.pid}.tmp`;
    writeFileSync(scratch, script.createCachedData());
    renameSync(scratch, path);
    if (!path.endsWith('.net.bin')) rmSync(path.replace(/\.bin$/, '.net.bin'), { force: true });
  } catch {
    // The cache is an optimisation only.
  }
}
