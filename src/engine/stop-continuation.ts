import type { SnapshotHandler } from '../hooks/types.js';
import { handlerDiagnostic } from './handler-diagnostic.js';
import type { ResultDiagnostic } from './types.js';

/** O3: at most this many consecutive Stop continuations happen. */
export const CONTINUATION_CAP = 8;

/** One Stop handler's request for another turn: its block reason or its additionalContext (O1). */
export interface ContinuationRequest {
  handler: SnapshotHandler;
  text: string;
}

export interface ContinuationOutcome {
  continueLoop: boolean;
  /** The requests' texts in configuration order, when the continuation happens. */
  feedback: { handler: SnapshotHandler; text: string }[];
  diagnostics: ResultDiagnostic[];
}

/**
 * O1-O3: the requests lead to a continuation only when `continue` is still true (O2) and fewer
 * than CONTINUATION_CAP continuations happened in a row (O3); each request over the cap is
 * ignored with `continuation_cap`.
 */
export function settleContinuation(
  requests: readonly ContinuationRequest[],
  opts: { continue: boolean; continuationCount: number },
): ContinuationOutcome {
  const none: ContinuationOutcome = { continueLoop: false, feedback: [], diagnostics: [] };
  if (requests.length === 0 || !opts.continue) return none;
  if (opts.continuationCount >= CONTINUATION_CAP) {
    const message = `continuation ignored: ${opts.continuationCount} consecutive continuations already happened (cap ${CONTINUATION_CAP})`;
    const diagnostics = requests.map((r) =>
      handlerDiagnostic(r.handler, 'continuation_cap', 'warning', message),
    );
    return { ...none, diagnostics };
  }
  return { continueLoop: true, feedback: [...requests], diagnostics: [] };
}
