import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Script } from 'node:vm';

/**
 * STYLE "Start-up cost": the chunks of dist/bundle/ are compiled with V8's code cache, kept in
 * `<dir>/<chunk>.bin`. A chunk's name holds the hash of its content, so a cache belongs to exactly
 * one chunk text. A cache is made when the run that loaded the chunk exits with status 0, so it
 * holds every function that run compiled, the lazily compiled ones too; a cache V8 rejects (made
 * by another V8) is made again. V8 tags a cache with its flags and rejects it under others, so
 * chunks are compiled and caches made through `underDefaultFlags`, which puts back any flag the
 * run changed for that time (wasm-tier-up.ts). Writing removes the caches of chunks the bundle no
 * longer has. Best effort: a cache
 * directory that cannot be read or written only costs compile time.
 *
 * Node's own compile cache (module.enableCompileCache, Node 22.1+) keeps only what V8 compiles as
 * a module loads, the top level of a chunk and not the functions it calls later, so it leaves
 * most of a command's compiling to every run (README "Start-up").
 */
export function cacheChunks(
  bundleDir: string,
  dir: string,
  underDefaultFlags: <T>(compile: () => T) => T,
): void {
  const Module = process.getBuiltinModule('node:module') as unknown as ModuleLoader;
  const { Script: ScriptClass } = process.getBuiltinModule('node:vm');
  const fresh: Array<[string, Script]> = [];
  // Node loads a `.cjs` file with the `.js` loader unless `.cjs` has one of its own.
  const load = Module._extensions['.cjs'] ?? Module._extensions['.js'];
  Module._extensions['.cjs'] = (module, filename) => {
    if (dirname(filename) !== bundleDir) return load?.(module, filename);
    const file = join(dir, `${basename(filename)}.bin`);
    const cachedData = readIfPresent(file);
    const source = Module.wrap(readFileSync(filename, 'utf8'));
    const options = { filename, ...(cachedData === undefined ? {} : { cachedData }) };
    const script = underDefaultFlags(() => new ScriptClass(source, options));
    if (cachedData === undefined || script.cachedDataRejected === true) fresh.push([file, script]);
    const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
    const require = (id: string): unknown => module.require(id);
    wrapper.call(module.exports, module.exports, require, module, filename, bundleDir);
  };
  process.once('exit', (code) => {
    if (code === 0 && fresh.length > 0) underDefaultFlags(() => writeCaches(bundleDir, dir, fresh));
  });
}

/** The parts of Node's CommonJS loader this uses (`require.extensions`, `Module.wrap`). */
interface ModuleLoader {
  _extensions: Record<string, (module: LoadingModule, filename: string) => void>;
  wrap(source: string): string;
}

interface LoadingModule {
  exports: unknown;
  require(id: string): unknown;
}

function writeCaches(bundleDir: string, dir: string, fresh: Array<[string, Script]>): void {
  try {
    mkdirSync(dir, { recursive: true });
    const chunks = new Set(readdirSync(bundleDir));
    for (const name of readdirSync(dir))
      if (!chunks.has(name.replace(/\.bin$/, ''))) rmSync(join(dir, name), { force: true });
    for (const [file, script] of fresh) {
      const scratch = `${file}.${process.pid}.tmp`;
      writeFileSync(scratch, script.createCachedData());
      renameSync(scratch, file);
    }
  } catch {
    // The cache is an optimisation only.
  }
}

function readIfPresent(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}
