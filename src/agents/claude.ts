import type { Agent } from './agent.js';
import { CLAUDE_FORMAT } from './claude-format.js';
import { encodeClaudeOutput } from './claude-output.js';

/** Claude Code: `~/.claude/settings.json`, project `<root>/.claude/settings.json` (agents.md). */
export const CLAUDE: Agent = {
  id: 'claude',
  name: 'Claude Code',
  settingsFile: ['.claude', 'settings.json'],
  ...CLAUDE_FORMAT,
  display: { suppressedMessages: 'shown', subagentStopContext: 'continues' },
  hooksOff: (settings) =>
    settings['disableAllHooks'] === true
      ? '`disableAllHooks` is true, so Claude Code runs no hook'
      : null,
  encode: (result) =>
    encodeClaudeOutput(result, {
      suppressOriginalPrompt: false,
      subagentStopContext: 'block',
      stopAsBlock: ['UserPromptSubmit', 'PreCompact'],
      failuresShown: true,
    }),
};
