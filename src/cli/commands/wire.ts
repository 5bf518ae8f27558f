import { isUtf8 } from 'node:buffer';
import type { Command } from 'commander';
import { AGENT_IDS, isAgentId, type AgentId, type WireAnswer } from '../../agents/agent.js';
import { HookpmError } from '../../errors.js';
import { readFailureReason } from '../../io/read-regular-file.js';
import type { StorePaths } from '../../store/store-paths.js';
import { globalOptions, storePathsOf, type GlobalOptions } from '../global-options.js';
import { WIRE_OPTIONS } from '../grammar.js';
import { readStdinBytes, writeText } from '../stdio.js';
import { clip } from '../../text/clip.js';

/**
 * `hookpm wire <agent>`: the handler `hookpm link` writes into an agent's settings. Reads the
 * agent's event on stdin, runs hookpm's enabled plugins on it and answers in the agent's format
 * (ops/wire/answer-event.ts); the exit code is the answer's.
 */
export function register(program: Command): void {
  const command = program
    .command('wire <agent>')
    .helpGroup('Run')
    .description(
      "answer one agent event (the handler `hookpm link` writes; reads the agent's payload on stdin)",
    );
  for (const { flags, description } of WIRE_OPTIONS) command.option(flags, description);
  command
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
    .action((agent: string, flags: { deadline?: string; background?: boolean }, command: Command) =>
      runWire(agent, () => globalOptions(command), flags.deadline, flags.background === true),
    );
}

/**
 * What `hookpm wire <agent> [--deadline <s>]` runs (also from cli/start/wire-entry.ts). A deadline
 * that is not a number of seconds above 0 is told on stderr and the default used: the agent's
 * event is answered all the same. `globalsOf` is asked once the payload is read, so a hookpm home
 * it refuses (a relative HOOKPM_HOME, E_CONFIG) fails the event closed (engine.md B7).
 */
export async function runWire(
  agent: string,
  globalsOf: () => GlobalOptions,
  deadline?: string | boolean,
  background = false,
): Promise<void> {
  if (!isAgentId(agent))
    throw new HookpmError(
      'E_USAGE',
      `unknown agent ${JSON.stringify(clip(agent))}: expected one of ${AGENT_IDS.join(', ')}`,
    );
  const [{ answerWireEvent }, { installExitCleanup }] = await Promise.all([
    import('../../ops/wire/answer-event.js'),
    import('../../engine/process-groups.js'),
  ]);
  // The agent's deadline (a signal) takes hookpm's handler process groups with it (X4).
  installExitCleanup();
  const deadlineSec = deadlineOf(deadline);
  const bytes = readAgentPayload();
  const stdin = bytes?.toString('utf8') ?? null;
  let globals: GlobalOptions;
  let store: StorePaths;
  try {
    globals = globalsOf();
    store = storePathsOf(globals);
  } catch (error) {
    const refused = background ? null : await crashAnswerOf(agent, stdin, null, error);
    if (refused === null) throw error;
    return writeAnswer(refused);
  }
  const answer = await answerWireEvent({
    agent,
    stdin,
    // engine.md B5: never read with replacement characters; a native check, no JS loop.
    ...(bytes !== null && !isUtf8(bytes) ? { notUtf8: true } : {}),
    store,
    ...(globals.hookpmHome === undefined ? {} : { hookpmHome: globals.hookpmHome }),
    env: process.env,
    cwd: globals.cwd,
    home: globals.userHome,
    // Counted from this process's start (performance.now() 0): hookpm's start-up is in it.
    deadline: { seconds: deadlineSec, startedAt: 0 },
    ...(background ? { background: true } : {}),
  }).catch(async (error: unknown) => {
    // engine.md B7: a failure of hookpm's own fails closed; a background entry blocks nothing.
    const crashed = background ? null : await crashAnswerOf(agent, stdin, store, error);
    if (crashed === null) throw error;
    return crashed;
  });
  if (deadlineSec === null && typeof deadline === 'string')
    writeText(
      2,
      `hookpm: warning: --deadline ${JSON.stringify(deadline)} is not seconds; ignored\n`,
    );
  writeAnswer(answer);
}

function writeAnswer(answer: WireAnswer): void {
  if (answer.stdout !== '') writeText(1, answer.stdout);
  if (answer.stderr !== '') writeText(2, answer.stderr);
  process.exitCode = answer.exitCode;
}

/**
 * The agent's payload, as readStdinBytes reads it. A stdin that cannot be read at all (a directory,
 * a closed descriptor) tells no event: an E_IO error, exit 1, which the agents report as a
 * non-blocking hook error (engine.md B7), never E_INTERNAL.
 */
function readAgentPayload(): Buffer | null {
  try {
    return readStdinBytes();
  } catch (error) {
    throw new HookpmError(
      'E_IO',
      `cannot read the agent's payload from stdin (${readFailureReason(error)})`,
      {
        hint: 'Give `hookpm wire` the payload on stdin, from a pipe or a file, as `hookpm link` has the agent do.',
      },
    );
  }
}

/** crash-answer.ts's answer, or null when it has none or cannot be loaded either. */
async function crashAnswerOf(
  agent: AgentId,
  stdin: string | null,
  store: StorePaths | null,
  error: unknown,
): Promise<WireAnswer | null> {
  try {
    const { crashAnswer } = await import('../../ops/wire/crash-answer.js');
    return crashAnswer(agent, stdin, store, error);
  } catch {
    return null;
  }
}

/** `--deadline <s>`: seconds above 0, or null (none given, or not a number). */
function deadlineOf(given: string | boolean | undefined): number | null {
  if (typeof given !== 'string' || !/^\d+(\.\d+)?$/.test(given)) return null;
  const seconds = Number(given);
  return seconds > 0 && Number.isFinite(seconds) ? seconds : null;
}
