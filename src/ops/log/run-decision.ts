import { parseHandlerOutput } from '../../engine/parse-output.js';
import type { HandlerRun } from '../../engine/types.js';
import { EVENTS, type EventName } from '../../hooks/events.js';
import type { LoggedDecision } from './run-outcome.js';

/**
 * One run's own decision, before reduction: its permission decision, else a block (a denial on
 * the events whose blocks deny, docs/reference/rules/engine.md#events), else `continue:false` as a block, else context.
 * Loads the output parser (and its zod schemas): imported only where handlers ran
 * (run-matched.ts), never on the path of a dispatch that matched nothing.
 */
export function runDecision(run: HandlerRun, event: EventName): LoggedDecision | null {
  const out = parseHandlerOutput(run, event);
  if (out.permission !== null) return out.permission.decision;
  if (out.block !== null) return EVENTS[event].blockPolicy === 'deny' ? 'deny' : 'block';
  if (!out.continue) return 'block';
  return out.context.length > 0 ? 'context' : null;
}
