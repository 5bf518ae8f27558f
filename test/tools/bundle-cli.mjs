#!/usr/bin/env node
// The second step of `npm run build` (after tsc): bundles the compiled CLI, from its entry
// dist/cli/start/entry.js, with rolldown (vite's bundler, pinned by package-lock.json) into
// CommonJS chunks in dist/bundle/, which bin/hookpm.js requires (entry.cjs). Loading ~200 small ES
// modules costs tens of milliseconds of resolving, reading and linking at every start
// (bench/cli-startup.bench.mjs); a chunk is one file for many modules, and each `import()` of the
// sources stays a chunk of its own, required only when a command reaches it, so `list` reads
// neither commander nor zod nor undici, and a module's imports of Node's own modules are required
// only when its chunk is. Nothing of rolldown's output is rewritten afterwards.
//
// The chunks live two levels below the package root, like dist/cli/, so the sources' relative
// paths to the package root (io/package-root.ts) resolve the same. They are written into a
// scratch directory and swapped in with renames, so a starting process sees the old chunks, the
// new ones, or none (and then runs dist/).
import { rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const DIST = join(ROOT, 'dist');
const OUT = join(DIST, 'bundle');
const scratch = join(DIST, `bundle.tmp-${process.pid}`);
const old = join(DIST, `bundle.old-${process.pid}`);

await rm(scratch, { recursive: true, force: true });
await build({
  input: { entry: join(DIST, 'cli', 'start', 'entry.js') },
  cwd: ROOT,
  platform: 'node',
  // Node's own modules stay `require`s; every package is bundled (they are all pure JavaScript).
  external: [/^node:/],
  logLevel: 'warn',
  // A module both imported and lazily imported simply stays where it is: not worth a warning.
  onLog(level, log, handler) {
    if (log.code !== 'INEFFECTIVE_DYNAMIC_IMPORT') handler(level, log);
  },
  output: {
    dir: scratch,
    format: 'cjs',
    entryFileNames: '[name].cjs',
    chunkFileNames: '[name]-[hash].cjs',
    // Every start reads the text of the chunks it loads: without comments it is much shorter.
    comments: false,
  },
});
await swapIn(scratch, OUT);

/** Replaces `out` with `dir`; another build swapping at the same time only makes it try again. */
async function swapIn(dir, out) {
  for (let attempt = 0; ; attempt += 1) {
    await rename(out, old).catch((error) => {
      if (error.code !== 'ENOENT') throw error;
    });
    await rm(old, { recursive: true, force: true });
    try {
      await rename(dir, out);
      return;
    } catch (error) {
      if ((error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') || attempt >= 20) throw error;
    }
  }
}
