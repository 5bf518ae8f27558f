import { runFastPath } from './fast-path.js';
import { exitWhenWritten } from './stdio.js';

/**
 * The CLI's entry (bundled into dist/bundle/cli.cjs, run by src/cli/start.ts; bin/hookpm.js imports
 * it directly when there is no current bundle): the command lines of cli/fast-path.ts answer
 * without loading commander and every command; the rest go through the full CLI (cli/main.ts).
 * Inside the bundle a dynamic import stays lazy, so main.ts and its imports are evaluated only when
 * needed.
 */
export async function main(argv: readonly string[] = process.argv): Promise<void> {
  // A fast path prints with cli/stdio.ts only, so it can end the process as soon as it is done.
  if (await runFastPath(argv)) return exitWhenWritten();
  await (await import('./main.js')).main(argv);
}
