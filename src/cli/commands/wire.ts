import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { AGENT_IDS, isAgentId } from '../../agents/agent.js';
import { HookpmError } from '../../errors.js';
import { globalOptions, storePathsOf, type GlobalOptions } from '../global-options.js';
import { writeText } from '../stdio.js';

/**
 * `hookpm wire <agent>`: the handler `hookpm link` writes into an agent's settings. Reads the
 * agent's event on stdin, runs hookpm's enabled plugins on it and answers in the agent's format
 * (ops/wire/answer-event.ts); the exit code is the answer's.
 */
export function register(program: Command): void {
  program
    .command('wire <agent>')
    .helpGroup('Run')
    .description(
      "answer one agent event (the handler `hookpm link` writes; reads the agent's payload on stdin)",
    )
    .addHelpText(
      'after',
      [
        '',
        `Agents: ${AGENT_IDS.join(', ')}. Written by \`hookpm link\`; \`hookpm run\` dispatches an event by hand.`,
        '',
        'Example:',
        '  $ hookpm wire claude < payload.json',
        `  $ echo '{"session_id":"s1","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}' | hookpm wire claude`,
        '',
      ].join('\n'),
    )
    .action((agent: string, _flags: unknown, command: Command) =>
      runWire(agent, globalOptions(command)),
    );
}

/** What `hookpm wire <agent>` runs (also from cli/start/fast-path.ts). */
export async function runWire(agent: string, globals: GlobalOptions): Promise<void> {
  if (!isAgentId(agent))
    throw new HookpmError(
      'E_USAGE',
      `unknown agent ${JSON.stringify(agent)}: expected one of ${AGENT_IDS.join(', ')}`,
    );
  const [{ answerWireEvent }, { installExitCleanup }] = await Promise.all([
    import('../../ops/wire/answer-event.js'),
    import('../../engine/process-groups.js'),
  ]);
  // The agent's deadline (a signal) takes hookpm's handler process groups with it (X4).
  installExitCleanup();
  const answer = await answerWireEvent({
    agent,
    stdin: readAll(),
    store: storePathsOf(globals),
    env: process.env,
    cwd: globals.cwd,
  });
  if (answer.stdout !== '') writeText(1, answer.stdout);
  if (answer.stderr !== '') writeText(2, answer.stderr);
  process.exitCode = answer.exitCode;
}

/** The agent's payload: stdin to its end, read from the descriptor (no stream to set up). */
function readAll(): string {
  return readFileSync(0, 'utf8');
}
