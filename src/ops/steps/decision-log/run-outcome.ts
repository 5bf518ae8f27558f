import type { LoggedDecision } from '../../../engine/run-decision.js';
import type { DispatchResult, HandlerRun } from '../../../engine/types.js';

export type { LoggedDecision };

export const LOGGED_DECISIONS: readonly LoggedDecision[] = [
  'allow',
  'ask',
  'deny',
  'block',
  'context',
];

/**
 * A run failed when it gave no usable answer: it never started (X8), timed out (X6), was killed
 * (also when its dispatch was stopped and it then exited 0 or 2 by itself, B8), or exited with a
 * code other than 0 and 2 (K3). Exit 2 is a block, not a failure (K2). A run's summary (a
 * dispatch's `runs`) has no `failure`: a run that never started has no exit code.
 */
export function isFailedRun(
  run: Pick<HandlerRun, 'exitCode' | 'timedOut'> & Partial<Pick<HandlerRun, 'failure' | 'stopped'>>,
): boolean {
  return (
    (run.failure ?? null) !== null ||
    run.timedOut ||
    run.stopped === true ||
    (run.exitCode !== 0 && run.exitCode !== 2)
  );
}

/**
 * The reduced decision of a dispatch, as the agent is told it: a stop (`continue:false`, M1) as
 * `block`, since the agent stops whatever permission decision is beside it; else the permission
 * decision (M5); else a block's feedback or a Stop continuation as `block`; else context given
 * to the model.
 */
export function resultDecision(result: DispatchResult): LoggedDecision | null {
  if (!result.continue) return 'block';
  if (result.permission !== null) return result.permission.decision;
  if (result.feedback.length > 0 || result.continueLoop) return 'block';
  return result.context.length > 0 ? 'context' : null;
}
