import type { HandlerRun } from './types.js';
import type { readWireOutput } from './read-wire-output.js';

/*
 * engine.md L1-L3: the reader of a handler's JSON output (read-wire-output.ts) validates it with
 * zod, whose modules cost a start-up more than the spawn of a handler does. A dispatch loads the
 * reader only when one of its runs printed something that may hold a JSON object, so that the
 * common guard (`true`, `exit 2`, plain text) never loads zod. The reader, once loaded, stays.
 */

/** What parses one JSON object printed by a handler (read-wire-output.ts). */
export type WireOutputReader = typeof readWireOutput;

let loaded: WireOutputReader | undefined;

/** Whether reading `run`'s output may need the reader: its stdout holds a `{` (a superset). */
export function mayHoldJson(run: HandlerRun): boolean {
  return run.stdout.includes('{');
}

/** Loads the reader, once; parsing a run for which mayHoldJson holds needs it loaded first. */
export async function loadWireOutputReader(): Promise<void> {
  loaded ??= (await import('./read-wire-output.js')).readWireOutput;
}

/** The loaded reader. Called before loadWireOutputReader resolved, it is a bug: an assertion. */
export function wireOutputReader(): WireOutputReader {
  if (loaded === undefined)
    throw new Error('Assertion failed: a JSON output is read before loadWireOutputReader');
  return loaded;
}
