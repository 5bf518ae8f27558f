import type { Interface } from 'node:readline';
import { didYouMean } from '../../text/did-you-mean.js';
import { createReadline } from '../prompt/readline.js';
import type { Readable, Writable } from 'node:stream';
import { HookpmError } from '../../errors.js';
import { EVENT_NAMES, isEventName } from '../../hooks/events.js';
import { describeValue } from '../../json/describe-value.js';
import { parseJson } from '../../json/parse-json.js';
import type { Session } from '../../ops/run/session.js';
import { formatDispatchResult } from '../render/render-dispatch.js';
import { formatHookListing } from '../render/render-hooks.js';
import { formatSessionReport } from '../render/render-session.js';
import { reportError } from '../report-error.js';
import { completeSessionLine } from './session-completer.js';

export interface PromptStreams {
  input: Readable;
  output: Writable;
}

/** How the prompt ended: `/quit` or end of input (Ctrl+D) is `quit`; Ctrl+C is `interrupted`. */
export type PromptEnd = 'quit' | 'interrupted';

const HELP = [
  'Commands: /reload, /hooks, /quit, or <Event> <json payload> (Tab completes them), e.g.',
  '  PreToolUse {"tool_name":"Bash","tool_input":{"command":"ls"}}',
  `Events: ${EVENT_NAMES.join(', ')}`,
].join('\n');

type Read = { kind: 'line'; line: string } | { kind: 'eof' } | { kind: 'interrupt' };

/**
 * `hookpm session` on a TTY (docs/reference/rules/cli.md#session): prints the start report, then
 * reads commands until `/quit`, end of input or Ctrl+C, printing each result readably (plugin text
 * escaped). One command runs at a time; lines typed meanwhile wait their turn. During /reload the
 * prompt lets go of the terminal, so a trust question (engine.md T4) can own it while it is asked.
 * Errors are printed as the CLI prints them and the prompt carries on. Closes the session before
 * resolving.
 */
export async function runPrompt(
  session: Session,
  streams: PromptStreams = { input: process.stdin, output: process.stdout },
): Promise<PromptEnd> {
  const print = (text: string): void => void streams.output.write(`${text}\n`);
  print(formatSessionReport(session.report, 'session started'));
  print(HELP);
  let busy = false;
  // Ctrl+C while a command runs kills its handlers at once (the prompt then ends, as at the prompt).
  const reader = createLineReader(streams, () => {
    if (busy) void session.close();
  });
  let end: PromptEnd = 'quit';
  for (;;) {
    const read = await reader.next();
    if (read.kind !== 'line') {
      end = read.kind === 'eof' ? 'quit' : 'interrupted';
      break;
    }
    const line = read.line.trim();
    if (line === '/quit' || line === '/exit') break;
    busy = true;
    try {
      const text =
        line === '/reload'
          ? await reader.suspend(async () =>
              formatSessionReport(await session.reload(), 'reloaded'),
            )
          : await runCommand(session, line);
      if (text !== null) print(text);
    } catch (error) {
      reportError(error, { json: false });
    } finally {
      busy = false;
    }
  }
  reader.close();
  await session.close();
  return end;
}

/** One command line; returns what to print (null for a blank line). */
async function runCommand(session: Session, line: string): Promise<string | null> {
  if (line === '') return null;
  if (line === '/hooks') return formatHookListing(await session.hooks());
  if (line === '/help') return HELP;
  if (line.startsWith('/')) {
    throw usage(
      `unknown command ${describeValue(line.split(/\s/, 1)[0])}`,
      'Type /help for the commands.',
    );
  }
  const space = line.search(/\s/);
  const name = space === -1 ? line : line.slice(0, space);
  const json = space === -1 ? '' : line.slice(space).trim();
  if (!isEventName(name)) {
    const hint = didYouMean(name, EVENT_NAMES) ?? `Events: ${EVENT_NAMES.join(', ')}`;
    throw usage(`unknown event ${describeValue(name)}`, hint);
  }
  return formatDispatchResult(await session.dispatch(name, parsePayload(json)));
}

function parsePayload(json: string): Record<string, unknown> {
  if (json === '') return {};
  const hint = 'Type the payload as one JSON object after the event, e.g. `Stop {}`.';
  const parsed = parseJson(json, '<prompt>');
  if (!parsed.ok)
    throw usage(`invalid JSON payload at column ${parsed.column}: ${parsed.message}`, hint);
  const value = parsed.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw usage('the payload must be a JSON object', hint);
  }
  return value as Record<string, unknown>;
}

function usage(message: string, hint: string): HookpmError {
  return new HookpmError('E_USAGE', message, { hint });
}

interface LineReader {
  /** Shows the prompt and resolves with the next line (or a line typed ahead), eof or interrupt. */
  next(): Promise<Read>;
  /** Runs `task` with the terminal released (a trust question may read it), then reads again. */
  suspend<T>(task: () => Promise<T>): Promise<T>;
  close(): void;
}

/** One readline interface at a time on the terminal; lines typed ahead (or pasted) are queued. */
function createLineReader(streams: PromptStreams, onInterrupt: () => void): LineReader {
  const queue: Read[] = [];
  let history: string[] = [];
  let waiting: ((read: Read) => void) | null = null;
  let released = false;
  const push = (read: Read): void => {
    if (waiting === null) queue.push(read);
    else {
      const wake = waiting;
      waiting = null;
      wake(read);
    }
  };
  const open = (): Interface => {
    const rl = createReadline({
      input: streams.input,
      output: streams.output,
      prompt: 'hookpm> ',
      history: [...history],
      historySize: 200,
      completer: completeSessionLine,
    });
    rl.on('history', (lines: string[]) => (history = [...lines]));
    rl.on('line', (line) => push({ kind: 'line', line }));
    rl.on('SIGINT', () => {
      onInterrupt();
      push({ kind: 'interrupt' });
    });
    rl.on('close', () => {
      if (!released) push({ kind: 'eof' });
    });
    return rl;
  };
  let rl = open();
  return {
    next() {
      const queued = queue.shift();
      if (queued !== undefined) return Promise.resolve(queued);
      rl.prompt();
      return new Promise((resolve) => (waiting = resolve));
    },
    async suspend(task) {
      released = true;
      rl.close();
      try {
        return await task();
      } finally {
        released = false;
        rl = open();
      }
    },
    close() {
      released = true;
      rl.close();
    },
  };
}
