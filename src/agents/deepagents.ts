import { LINK_TIMEOUT_SEC, type Agent } from './agent.js';
import { CLAUDE_EVENTS, decodeClaudePayload } from './claude-payload.js';
import { encodeClaudeOutput } from './claude-output.js';

/**
 * Deep Agents Code: `~/.deepagents/hooks.json`, project `<root>/.deepagents/hooks.json`, in the
 * format of ../seeds/, which is the engine's own (engine.md sections 3 and 8).
 */
export const DEEPAGENTS: Agent = {
  id: 'deepagents',
  name: 'Deep Agents Code',
  settingsFile: ['.deepagents', 'hooks.json'],
  homeEnv: null,
  events: CLAUDE_EVENTS,
  settingsEvents: CLAUDE_EVENTS,
  eventsNotLinked: [],
  hooksConfigKeys: [],
  linkTimeout: LINK_TIMEOUT_SEC,
  linkTimeoutCaps: {},
  trustNote: () => null,
  decode: (payload) => decodeClaudePayload(payload, CLAUDE_EVENTS),
  encode: (result) =>
    encodeClaudeOutput(result, {
      suppressOriginalPrompt: true,
      subagentStopContext: 'additionalContext',
    }),
};
