import { EVENT_NAMES, isEventName, type EventName } from '../hooks/events.js';
import type { WireEvent } from './agent.js';

/**
 * Claude Code and Deep Agents Code name their events and payload fields as the engine does
 * (`hook_event_name`, `tool_name`, `tool_input`, ...: docs/guides/agents.md), so the payload is
 * the engine's input as it is. An event outside `linked` is not hookpm's: null.
 */
export function decodeClaudePayload(
  payload: Readonly<Record<string, unknown>>,
  linked: readonly EventName[],
): WireEvent | null {
  const name = payload['hook_event_name'];
  if (typeof name !== 'string' || !isEventName(name) || !linked.includes(name)) return null;
  return { event: name, input: { ...payload } };
}

/** Every engine event: Claude Code and Deep Agents Code have all twelve (docs/reference/rules/engine.md#events). */
export const CLAUDE_EVENTS: readonly EventName[] = EVENT_NAMES;
