import type { Agent } from './agent.js';
import { CLAUDE_EVENTS, decodeClaudePayload } from './claude-payload.js';

/**
 * What Claude Code and Deep Agents Code share (docs/guides/agents.md): the engine's twelve events
 * under their own names, payloads read as they are, hookpm's link timeout, no trust step, and no
 * settings beside the events in their `hooks`. Each adds its files and its output dialect.
 */
export const CLAUDE_FORMAT: Omit<Agent, 'id' | 'name' | 'settingsFile' | 'encode'> = {
  homeEnv: null,
  events: CLAUDE_EVENTS,
  settingsEvents: CLAUDE_EVENTS,
  eventsNotLinked: [],
  hooksConfigKeys: [],
  timeoutPerSecond: 1,
  linkTimeoutCaps: {},
  trustNote: () => null,
  decode: (payload) => decodeClaudePayload(payload, CLAUDE_EVENTS),
};
