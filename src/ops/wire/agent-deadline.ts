import { KILL_GRACE_MS } from '../../engine/process-groups.js';

/**
 * What `hookpm wire` keeps for itself before the agent's deadline
 * (docs/reference/rules/cli.md#w1): the kill of engine.md X6 (SIGTERM, the grace, SIGKILL, then at
 * most the grace again for pipes a grandchild holds) and one second to reduce, log and answer.
 */
export const WIRE_MARGIN_MS = 2 * KILL_GRACE_MS + 1000;

/**
 * The `performance.now()` value by which every handler of a linked event is ended
 * (DispatchOptions.deadline): the agent's deadline of `seconds`, counted from `startedAt` (when
 * the agent started hookpm: hookpm's own start-up is inside it), less WIRE_MARGIN_MS; a deadline
 * under twice the margin keeps half of itself for the handlers instead.
 */
export function handlersDeadline(startedAt: number, seconds: number): number {
  const ms = seconds * 1000;
  return startedAt + Math.max(ms - WIRE_MARGIN_MS, ms / 2);
}
