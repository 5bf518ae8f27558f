import { writeText, exitWhenWritten } from '../stdio.js';
import { enableCompileCache } from './compile-cache.js';
import { readVersion } from './version.js';
import { stopWasmTierUpForNetwork } from './wasm-tier-up.js';

/**
 * The CLI as bin/hookpm.js starts it: from dist/bundle/entry.cjs (the bundle of this module,
 * test/tools/bundle-cli.mjs), or from the compiled modules of dist/ when there is no current
 * bundle. It statically imports only what comes before the compile cache is on; everything else
 * is imported after, and only as a command needs it: `--version` answers at once, the fast paths
 * (fast-path.ts) answer the common forms of `list`, `search` and `install` without commander,
 * and the rest goes to the full CLI (cli/main.ts).
 */
export async function main(argv: readonly string[] = process.argv): Promise<void> {
  // In this order: the flags choose the directory of the compile cache (wasm-tier-up.ts).
  stopWasmTierUpForNetwork(argv);
  enableCompileCache(argv);
  const args = argv.slice(2);
  if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
    writeText(1, `${readVersion()}\n`);
    return exitWhenWritten();
  }
  const { runFastPath } = await import('./fast-path.js');
  // A fast path prints with cli/stdio.ts only, so it can end the process as soon as it is done.
  if (await runFastPath(argv)) return exitWhenWritten();
  await (await import('../main.js')).main(argv);
}
