import { EVENTS, type EventName } from '../hooks/events.js';
import type { ParsedOutput } from './parse-output.js';

/** What a dispatch or one handler's run decided, as the log and the statistics count it. */
export type LoggedDecision = 'allow' | 'ask' | 'deny' | 'block' | 'context';

/**
 * One run's own decision, before reduction, read from its parsed output (the one parse of that
 * output, which reduction reads too) as the agent is told it: `continue:false` is a block (the
 * agent stops, whatever else the output says: Claude Code reads `continue` before any decision
 * beside it); else a block on the events whose blocks deny (section 1) is a deny, which outranks
 * any permission decision beside it (M5); else its permission decision, else a block, else
 * context.
 */
export function runDecision(out: ParsedOutput, event: EventName): LoggedDecision | null {
  if (!out.continue) return 'block';
  const denies = EVENTS[event].blockPolicy === 'deny';
  if (out.block !== null && denies) return 'deny';
  if (out.permission !== null) return out.permission.decision;
  if (out.block !== null) return 'block';
  return out.context.length > 0 ? 'context' : null;
}
