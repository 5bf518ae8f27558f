import { spawn } from 'node:child_process';
import { BIN } from './built-bin.js';
import { requireTool, SCRIPT } from './system-package.js';

export interface TtyRun {
  code: number | null;
  /** Everything the terminal showed (stdout and stderr of hookpm share the pseudo-terminal). */
  screen: string;
}

export interface TtySession {
  /** Resolves once `text` has been shown (from the start of the run). */
  shown(text: string): Promise<void>;
  /** Resolves with where `text` is shown at or after `from`; -1 when the run ended without it. */
  shownAfter(text: string, from: number): Promise<number>;
  /** Types `keys` on the terminal (`\r` is Enter, `\u0003` Ctrl+C). */
  type(keys: string): void;
  done: Promise<TtyRun>;
}

let scriptPath: string | undefined;

/**
 * Finds util-linux `script` (installing it on first use, or failing with the command to run);
 * a test file calls it in `beforeAll` (timeout INSTALL_TIMEOUT_MS) before it starts anything here.
 */
export async function requireTty(): Promise<void> {
  scriptPath = await requireTool({ ...SCRIPT, neededBy: 'the terminal tests' });
}

/**
 * Starts `hookpm <args>` on a real pseudo-terminal (util-linux `script`, which exits with the
 * command's status). At a question the terminal is in raw mode, so readline sees Ctrl+C as a key.
 */
export function startOnTty(
  args: readonly string[],
  opts: { env: Record<string, string>; cwd: string },
): TtySession {
  const command = [process.execPath, BIN, ...args]
    .map((a) => `'${a.replace(/'/g, `'\\''`)}'`)
    .join(' ');
  if (scriptPath === undefined) throw new Error('Assertion failed: requireTty() was not awaited');
  const child = spawn(scriptPath, ['-qec', command, '/dev/null'], {
    cwd: opts.cwd,
    env: { ...opts.env, TERM: 'dumb' },
  });
  let screen = '';
  let ended = false;
  const waiters: Array<() => boolean> = [];
  const wake = (): void => {
    for (const w of waiters.splice(0)) if (!w()) waiters.push(w);
  };
  child.stdout.on('data', (chunk: Buffer) => {
    screen += chunk.toString();
    wake();
  });
  const done = new Promise<TtyRun>((resolve) =>
    child.on('close', (code) => {
      ended = true;
      wake();
      resolve({ code, screen });
    }),
  );
  const shownAfter = (text: string, from: number): Promise<number> =>
    new Promise((resolve) => {
      const test = (): boolean => {
        const at = screen.indexOf(text, from);
        if (at === -1 && !ended) return false;
        resolve(at);
        return true;
      };
      if (!test()) waiters.push(test);
    });
  return {
    shown: async (text) => {
      await shownAfter(text, 0);
    },
    shownAfter,
    type: (keys) => child.stdin.write(keys),
    done,
  };
}

/**
 * Runs `hookpm <args>` on a pseudo-terminal (startOnTty); each time the screen shows
 * `steps[i].when`, after what the step before it waited for, types `steps[i].keys`.
 */
export async function hookpmOnTty(
  args: readonly string[],
  steps: ReadonlyArray<{ when: string; keys: string }>,
  opts: { env: Record<string, string>; cwd: string },
): Promise<TtyRun> {
  const session = startOnTty(args, opts);
  let from = 0;
  for (const step of steps) {
    const at = await session.shownAfter(step.when, from);
    if (at === -1) break;
    from = at + step.when.length;
    session.type(step.keys);
  }
  return session.done;
}
