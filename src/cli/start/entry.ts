import { main as fastMain } from './fast-entry.js';

/**
 * The CLI as bin/hookpm.js runs it from the compiled modules of dist/ when there is no current
 * bundle (src/cli/start.ts runs dist/bundle/fast.cjs and dist/bundle/cli.cjs instead): the
 * command lines of cli/fast-path.ts answer without loading commander and every command; the rest
 * go through the full CLI (cli/main.ts).
 */
export async function main(argv: readonly string[] = process.argv): Promise<void> {
  await fastMain(argv, async () => (await import('./main.js')).main(argv));
}
