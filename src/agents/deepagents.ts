import type { Agent } from './agent.js';
import { CLAUDE_FORMAT } from './claude-format.js';
import { encodeClaudeOutput } from './claude-output.js';

/**
 * Deep Agents Code: `~/.deepagents/hooks.json`, project `<root>/.deepagents/hooks.json`, in the
 * engine's own format (docs/reference/rules/engine.md#configuration, #output-and-reduction).
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
      stopAsBlock: [],
      terminalSequence: true,
    }),
  display: { terminalSequences: 'pass' },
};
