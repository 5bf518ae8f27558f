import { runFastPath } from './fast-path.js';
import { exitWhenWritten } from './stdio.js';

/**
 * The entry of dist/bundle/fast.cjs, the script src/cli/start.ts runs for `install`, `list` and
 * `search`: only the fast paths (cli/fast-path.ts) and what they import, so these commands read
 * and compile less than half of the full CLI (bench/install.bench.mjs). A line the fast paths do
 * not answer (help, an option they do not read) goes to `fallback`, the full CLI.
 */
export async function main(argv: readonly string[], fallback: () => Promise<void>): Promise<void> {
  // A fast path prints with cli/stdio.ts only, so it can end the process as soon as it is done.
  if (await runFastPath(argv)) return exitWhenWritten();
  await fallback();
}
