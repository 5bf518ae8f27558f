import { EVENTS, type EventName } from '../../hooks/events.js';
import { parseHandlerOutput } from '../../engine/parse-output.js';
import type { DispatchResult, HandlerRun } from '../../engine/types.js';

/** What a dispatch or one handler's run decided, as the log and the statistics count it. */
export type LoggedDecision = 'allow' | 'ask' | 'deny' | 'block' | 'context';

export const LOGGED_DECISIONS: readonly LoggedDecision[] = [
  'allow',
  'ask',
  'deny',
  'block',
  'context',
];

/**
 * A run failed when it gave no usable answer: it never started (X8), timed out (X6), was killed,
 * or exited with a code other than 0 and 2 (K3). Exit 2 is a block, not a failure (K2).
 */
export function isFailedRun(run: Pick<HandlerRun, 'exitCode' | 'timedOut' | 'failure'>): boolean {
  return run.failure !== null || run.timedOut || (run.exitCode !== 0 && run.exitCode !== 2);
}

/**
 * One run's own decision, before reduction: its permission decision, else a block (a denial on
 * the events whose blocks deny, section 1), else `continue:false` as a block, else context.
 */
export function runDecision(run: HandlerRun, event: EventName): LoggedDecision | null {
  const out = parseHandlerOutput(run, event);
  if (out.permission !== null) return out.permission.decision;
  if (out.block !== null) return EVENTS[event].blockPolicy === 'deny' ? 'deny' : 'block';
  if (!out.continue) return 'block';
  return out.context.length > 0 ? 'context' : null;
}

/**
 * The reduced decision of a dispatch: the permission decision (M5), else a stop, a block's
 * feedback or a Stop continuation as `block`, else context given to the model.
 */
export function resultDecision(result: DispatchResult): LoggedDecision | null {
  if (result.permission !== null) return result.permission.decision;
  if (!result.continue || result.feedback.length > 0 || result.continueLoop) return 'block';
  return result.context.length > 0 ? 'context' : null;
}
