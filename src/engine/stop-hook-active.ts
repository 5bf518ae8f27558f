import type { EventName } from '../hooks/events.js';

/** The events whose payload carries `stop_hook_active` (engine.md X2). */
export const STOP_EVENTS: ReadonlySet<EventName> = new Set(['Stop', 'SubagentStop']);

/**
 * engine.md X2: whether the payload of a dispatch of `input` has `stop_hook_active: true`, without
 * building it (payload.ts): on Stop and SubagentStop the input's boolean, else
 * `continuationCount > 0`; on other events the input's own field. A dispatch that runs no handler
 * reads it so that its Stop fails closed as one whose handlers ran would: never again while a
 * continuation is active (engine.md B2).
 */
export function stopHookActiveOf(
  event: EventName,
  input: Readonly<Record<string, unknown>>,
  continuationCount: number,
): boolean {
  const given = input['stop_hook_active'];
  if (STOP_EVENTS.has(event) && typeof given !== 'boolean') return continuationCount > 0;
  return given === true;
}
