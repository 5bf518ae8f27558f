import { resolveGlobals } from '../global-options.js';
import { exitWhenWritten } from '../stdio.js';
import { WIRE_OPTIONS } from '../grammar.js';
import { grammarOf, parseFastLine } from './fast-line.js';

const GRAMMAR = grammarOf(WIRE_OPTIONS);

/**
 * `hookpm wire <agent>`, the handler of every linked agent event (docs/design/benchmarks.md: within
 * 1.5x of a bare node start), started by entry.ts before anything else loads. Bundled on its own
 * (dist/bundle/wire-*.cjs, test/tools/bundle-cli.mjs): an event loads the chunk every event runs,
 * and the handler runner's only when handlers match, instead of some twenty chunks. Returns false
 * for a line that is not a plain `wire <agent> [--deadline <s>]`, which then goes to the full CLI
 * to be explained. Ends the process itself once its output is written, since its output module is
 * its own bundle's.
 */
export async function main(argv: readonly string[]): Promise<boolean> {
  const line = parseFastLine(argv.slice(2), 'wire', GRAMMAR, true);
  if (line === null || line.operands.length !== 1) return false;
  try {
    await (
      await import('../commands/wire.js')
    ).runWire(
      line.operands[0]!,
      () => resolveGlobals(line.options, 'home'),
      line.options['deadline'],
      line.options['background'] === true,
    );
  } catch (error) {
    const { reportError } = await import('../report-error.js');
    process.exitCode = reportError(error, { json: false });
  }
  exitWhenWritten();
  return true;
}
