import type { Agent } from './agent.js';
import { CLAUDE_FORMAT } from './claude-format.js';
import { encodeClaudeOutput } from './claude-output.js';

/**
 * The bytes of a hook's stdout Deep Agents Code reads (MAX_HOOK_OUTPUT_BYTES in its
 * libs/code/deepagents_code/hooks/runner.py): past them it reads the rest as cut, and a cut JSON
 * answer as plain text, so its decision would be lost (docs/reference/rules/engine.md#d13).
 */
export const DEEPAGENTS_ANSWER_BYTES = 100_000;

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
      maxAnswerBytes: DEEPAGENTS_ANSWER_BYTES,
    }),
  display: { terminalSequences: 'pass' },
};
