import { LINK_TIMEOUT_SEC, type Agent } from './agent.js';
import { CLAUDE_EVENTS, decodeClaudePayload } from './claude-payload.js';
import { encodeClaudeOutput } from './claude-output.js';

/** Claude Code: `~/.claude/settings.json`, project `<root>/.claude/settings.json` (agents.md). */
export const CLAUDE: Agent = {
  id: 'claude',
  name: 'Claude Code',
  settingsFile: ['.claude', 'settings.json'],
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
    encodeClaudeOutput(result, { suppressOriginalPrompt: false, subagentStopContext: 'block' }),
};
