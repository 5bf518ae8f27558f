import type { Agent } from './agent.js';
import { CLAUDE_EVENTS, decodeClaudePayload } from './claude-payload.js';
import { encodeClaudeOutput } from './claude-output.js';

/** Claude Code: `~/.claude/settings.json`, project `<root>/.claude/settings.json` (agents.md). */
export const CLAUDE: Agent = {
  id: 'claude',
  name: 'Claude Code',
  settingsFile: ['.claude', 'settings.json'],
  events: CLAUDE_EVENTS,
  decode: (payload) => decodeClaudePayload(payload, CLAUDE_EVENTS),
  encode: (result) =>
    encodeClaudeOutput(result, { suppressOriginalPrompt: false, subagentStopContext: 'block' }),
};
