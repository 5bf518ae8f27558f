import { join, resolve } from 'node:path';
import { PACKAGE_ROOT } from '../../io/package-root.js';
import { resolveStorePaths } from '../../store/paths.js';
import { exitWhenWritten, writeText } from '../stdio.js';
import { cacheChunks } from './chunk-cache.js';
import { readVersion } from './version.js';
import { stopWasmTierUpOnConnect, underDefaultFlags } from './wasm-tier-up.js';

/**
 * The CLI as bin/hookpm.js starts it: from dist/bundle/entry.cjs (the bundle of this module,
 * test/tools/bundle-cli.mjs), or from the compiled modules of dist/ when there is no current
 * bundle. It statically imports only what comes before the chunk cache is on; everything else is
 * imported after, and only as a command needs it: `--version` answers at once, the fast paths
 * (fast-path.ts) answer the common forms of `list`, `search` and `install` without commander,
 * `wire <agent>` runs from a bundle of its own (wire-entry.ts), and the rest goes to the full CLI
 * (cli/main.ts).
 */
export async function main(argv: readonly string[] = process.argv): Promise<void> {
  const args = argv.slice(2);
  if (args.length === 1 && (args[0] === '--version' || args[0] === '-V' || args[0] === '-v')) {
    writeText(1, `${readVersion()}\n`);
    return exitWhenWritten();
  }
  // V8 rejects a cache made by another V8: each has a directory of its own.
  const cacheDir = cacheDirOf(argv);
  if (cacheDir !== null) {
    const caches = join(cacheDir, 'code-cache', `${process.version}-${process.arch}`);
    cacheChunks(join(PACKAGE_ROOT, 'dist', 'bundle'), caches, underDefaultFlags, provisionalWire);
  }
  // A linked agent event: its own one-file bundle (wire-entry.ts), which ends the process. When
  // that bundle cannot be loaded (a file of it missing or damaged, as after a partial upgrade), the
  // full CLI answers the event from its own chunks, and fails it closed if it fails too (B7).
  if (args[0] === 'wire' && (await wireBundle(argv))) return;
  stopWasmTierUpOnConnect();
  // Loaded after the chunk cache is on, so it and the lock code share one lock-wait.ts instance.
  (await import('../lock-wait-notice.js')).watchLockWaits();
  const { runFastPath } = await import('./fast-path.js');
  // A fast path prints with cli/stdio.ts only, so it can end the process as soon as it is done.
  if (await runFastPath(argv)) return exitWhenWritten();
  await (await import('../main.js')).main(argv);
}

/**
 * wire-entry.ts's main, or false when its bundle cannot be loaded: the bundle's chunks are required
 * as its main is called, before it reads anything, so the full CLI can still read the payload.
 */
async function wireBundle(argv: readonly string[]): Promise<boolean> {
  try {
    return await (await import('./wire-entry.js')).main(argv);
  } catch {
    return false;
  }
}

/**
 * A linked event that loaded `wire-more` (a session's first event, which makes its pin; a handler's
 * JSON output; an error) runs little of what the events answered from a pin run, about 5 ms of
 * functions that each of those would compile again if the cache of `wire-core` were made by it:
 * the caches it makes of the other wire chunks are provisional (chunk-cache.ts).
 */
function provisionalWire(chunk: string, loaded: readonly string[]): boolean {
  return (
    chunk.startsWith('wire-') &&
    !chunk.startsWith('wire-more-') &&
    loaded.some((name) => name.startsWith('wire-more-'))
  );
}

/**
 * registry.md D1: the cache directory of `--home`, else of HOOKPM_HOME, else the platform one; null
 * for a relative HOOKPM_HOME, which the command then refuses (nothing is cached in the working
 * directory).
 */
function cacheDirOf(argv: readonly string[]): string | null {
  const at = argv.indexOf('--home');
  const given = argv.find((arg) => arg.startsWith('--home='))?.slice('--home='.length);
  const flag = at >= 2 ? argv[at + 1] : given;
  try {
    return resolveStorePaths({
      HOOKPM_HOME: flag === undefined ? process.env.HOOKPM_HOME : resolve(flag),
    }).cache;
  } catch {
    return null;
  }
}
