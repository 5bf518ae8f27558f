import {
  closeSync,
  constants,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Script } from 'node:vm';

/**
 * STYLE "Start-up cost": the chunks of dist/bundle/ are compiled with V8's code cache, kept in
 * `<dir>/<chunk>.bin`. A chunk's name holds the hash of its content, so a cache belongs to exactly
 * one chunk text. A cache is made when the run that loaded the chunk exits with status 0, so it
 * holds every function that run compiled, the lazily compiled ones too; a cache V8 rejects (made by
 * another V8) is made again. V8 tags a cache with its flags and rejects it under others, so chunks
 * are compiled and caches made through `underDefaultFlags`, which puts back any flag the run
 * changed for that time (wasm-tier-up.ts). Writing removes the caches of chunks the bundle no
 * longer has. Best effort: a cache directory that cannot be read or written only costs compile
 * time. (Node's compile cache, Node 22.1+, keeps only what V8 compiles as a module loads:
 * docs/design/benchmarks.md.)
 *
 * A cache that `provisional(chunk, loaded)` calls provisional (`loaded`: the names of the chunks
 * the run loaded) is kept as `<chunk>.provisional.bin`, for a run that ran little of what the
 * chunk's usual runs do: it is used while there is no other, and the first run that makes a
 * cache of the chunk that is not provisional replaces it.
 */
export function cacheChunks(
  bundleDir: string,
  dir: string,
  underDefaultFlags: <T>(compile: () => T) => T,
  provisional: (chunk: string, loaded: readonly string[]) => boolean = () => false,
): void {
  const Module = process.getBuiltinModule('node:module') as unknown as ModuleLoader;
  const loader: ChunkLoader = { bundleDir, dir, underDefaultFlags, chunks: new Map(), fresh: [] };
  // The chunks Node's loader ran before this one was installed (the entry and its imports) are the
  // instances every later chunk gets: a module runs once, so its state (stdio.ts's queued output)
  // is one.
  for (const [filename, module] of Object.entries(Module._cache))
    if (module !== undefined && dirname(filename) === bundleDir)
      loader.chunks.set(filename, module);
  // Node loads a `.cjs` file with the `.js` loader unless `.cjs` has one of its own.
  const load = Module._extensions['.cjs'] ?? Module._extensions['.js'];
  Module._extensions['.cjs'] = (module, filename) => {
    if (dirname(filename) !== bundleDir) return load?.(module, filename);
    const known = loader.chunks.get(filename);
    if (known !== undefined) module.exports = known.exports;
    else compileChunk(loader, module, filename);
  };
  process.once('exit', (code) => {
    if (code !== 0 || loader.fresh.length === 0) return;
    const loaded = [...loader.chunks.keys()].map((file) => basename(file));
    // A provisional cache is not made again by another provisional run.
    const fresh = loader.fresh
      .map((chunk) => ({ ...chunk, provisional: provisional(basename(chunk.file), loaded) }))
      .filter((chunk) => !(chunk.provisional && chunk.had === 'provisional'));
    if (fresh.length > 0) underDefaultFlags(() => writeCaches(bundleDir, dir, fresh));
  });
}

interface ChunkLoader {
  bundleDir: string;
  dir: string;
  underDefaultFlags: <T>(compile: () => T) => T;
  /** Every chunk loaded, by file: Node's `require` and the chunks' own share one instance. */
  chunks: Map<string, LoadingModule>;
  /** The chunks whose cache is to be made at exit, and what cache each was compiled with. */
  fresh: Array<{ file: string; script: Script; had: 'none' | 'provisional' }>;
}

/** The name of a chunk's provisional cache beside its cache `file` (`<chunk>.bin`). */
const provisionalOf = (file: string): string => file.replace(/\.bin$/, '.provisional.bin');

/** Compiles a chunk through its cache and runs it, with `require` for the chunks it requires. */
function compileChunk(loader: ChunkLoader, module: LoadingModule, filename: string): void {
  loader.chunks.set(filename, module);
  const file = join(loader.dir, `${basename(filename)}.bin`);
  const final = readIfPresent(file);
  const cachedData = final ?? readIfPresent(provisionalOf(file));
  const source = `${WRAPPER}${readFileSync(filename, 'utf8')}\n})`;
  const options = { filename, ...(cachedData === undefined ? {} : { cachedData }) };
  const { Script: ScriptClass } = process.getBuiltinModule('node:vm');
  const script = loader.underDefaultFlags(() => new ScriptClass(source, options));
  if (cachedData === undefined || script.cachedDataRejected === true)
    loader.fresh.push({ file, script, had: 'none' });
  else if (final === undefined) loader.fresh.push({ file, script, had: 'provisional' });
  // The chunks require only each other (`./<chunk>.cjs`) and Node's modules: no resolution needed.
  const require = (id: string): unknown => {
    if (!id.startsWith('./')) return process.getBuiltinModule(id);
    const path = join(loader.bundleDir, id);
    const known = loader.chunks.get(path);
    if (known !== undefined) return known.exports;
    const required: LoadingModule = { exports: {} };
    compileChunk(loader, required, path);
    return required.exports;
  };
  const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
  wrapper.call(module.exports, module.exports, require, module, filename, loader.bundleDir);
}

/** What Node's CommonJS loader wraps a module's text in (Module.wrap). */
const WRAPPER = '(function (exports, require, module, __filename, __dirname) { ';

/** The parts of Node's CommonJS loader this uses (`require.extensions`, `require.cache`). */
type ModuleLoader = {
  _extensions: Record<string, (m: LoadingModule, filename: string) => void>;
  _cache: Record<string, LoadingModule | undefined>;
};

type LoadingModule = { exports: unknown };

function writeCaches(
  bundleDir: string,
  dir: string,
  fresh: Array<{ file: string; script: Script; provisional: boolean }>,
): void {
  try {
    mkdirSync(dir, { recursive: true });
    const chunks = new Set(readdirSync(bundleDir));
    for (const name of readdirSync(dir))
      if (!chunks.has(name.replace(/(\.provisional)?\.bin$/, '')))
        rmSync(join(dir, name), { force: true });
    for (const { file, script, provisional } of fresh) {
      const cache = provisional ? provisionalOf(file) : file;
      const scratch = `${cache}.${process.pid}.tmp`;
      writeFileSync(scratch, script.createCachedData());
      renameSync(scratch, cache);
      if (!provisional) rmSync(provisionalOf(file), { force: true });
    }
  } catch {
    // The cache is an optimisation only.
  }
}

/**
 * The cached data at `path`, or undefined: missing, or not a regular file (a symlink, a FIFO, a
 * device there is never followed, waited on or read; io/read-regular-file.ts has the same rule,
 * inlined here to keep the start-up path to its own module).
 */
function readIfPresent(path: string): Buffer | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, READ_CACHE);
    return fstatSync(fd).isFile() ? readFileSync(fd) : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

const READ_CACHE = constants.O_RDONLY | constants.O_NONBLOCK | (constants.O_NOFOLLOW ?? 0);
