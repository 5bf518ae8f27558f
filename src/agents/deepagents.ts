import type { Agent } from './agent.js';
import { CLAUDE_FORMAT } from './claude-format.js';
import { encodeClaudeOutput } from './claude-output.js';

/**
 * Deep Agents Code: `~/.deepagents/hooks.json`, project `<root>/.deepagents/hooks.json`, in the
 * format of ../seeds/, which is the engine's own (engine.md sections 3 and 8).
 */
export const DEEPAGENTS: Agent = {
  id: 'deepagents',
  name: 'Deep Agents Code',
  settingsFile: ['.deepagents', 'hooks.json'],
  ...CLAUDE_FORMAT,
  encode: (result) =>
    encodeClaudeOutput(result, {
      suppressOriginalPrompt: true,
      subagentStopContext: 'additionalContext',
    }),
};
