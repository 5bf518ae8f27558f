import { execFileSync } from 'node:child_process';
import { beforeAll } from 'vitest';
import { BIN, ensureBuilt } from './built-bin.js';
import { INSTALL_TIMEOUT_MS, requireTool, TMUX } from './system-package.js';

/** `text` as one single-quoted shell word. */
export const quote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

export interface PaneOptions {
  cwd: string;
  env: Record<string, string>;
  extra?: Record<string, string>;
  args: string[];
  cols: number;
  rows: number;
}

/** A tmux server on its own socket: detached panes running the built hookpm, read as text. */
export interface Tmux {
  /** Runs `tmux -S <socket> ...args` and answers its stdout. */
  tmux: (...args: string[]) => string;
  /**
   * Starts `hookpm ...args` in a new detached session `name` of `cols` x `rows`, in `cwd` with
   * exactly `env`, TERM xterm-256color, then `extra`; the shell prints EXITED:<code> after it.
   */
  startHookpm: (name: string, opts: PaneOptions) => void;
  /** The pane's text (-J joins wrapped lines; `colour` keeps the escapes), 200 lines back. */
  screen: (name: string, colour?: boolean) => string;
  /** The screen once `test` holds; throws, with the screen, after `timeoutMs`. */
  waitForScreen: (
    name: string,
    test: (text: string) => boolean,
    what: string,
    opts?: { colour?: boolean; timeoutMs?: number },
  ) => Promise<string>;
  /** Ends the server and its panes (call it before removing the socket's directory). */
  killServer: () => void;
}

/**
 * Registers the hook that installs tmux (or fails with the command to run) and builds dist/;
 * `socket` is read on each call, so it may change per test.
 */
export function useTmux(socket: () => string): Tmux {
  let tmuxPath = '';
  beforeAll(async () => {
    tmuxPath = await requireTool({ ...TMUX, neededBy: 'the terminal tests' });
    ensureBuilt();
  }, INSTALL_TIMEOUT_MS);
  const tmux = (...args: string[]): string =>
    execFileSync(tmuxPath, ['-S', socket(), ...args], {
      encoding: 'utf8',
      env: { ...process.env, TMUX: '' },
    });
  const screen = (name: string, colour = false): string =>
    tmux('capture-pane', '-p', '-J', ...(colour ? ['-e'] : []), '-S', '-200', '-t', name);
  return {
    tmux,
    screen,
    startHookpm: (name, { cwd, env, extra, args, cols, rows }) => {
      const vars = Object.entries({ ...env, TERM: 'xterm-256color', ...extra })
        .map(([k, v]) => `${k}=${quote(v)}`)
        .join(' ');
      const command = `cd ${quote(cwd)} && env -i ${vars} ${quote(process.execPath)} ${quote(BIN)} ${args.map(quote).join(' ')}; echo EXITED:$?; sleep 60`;
      tmux('new-session', '-d', '-x', String(cols), '-y', String(rows), '-s', name, command);
    },
    waitForScreen: async (name, test, what, { colour = false, timeoutMs = 10_000 } = {}) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const text = screen(name, colour);
        if (test(text)) return text;
        if (Date.now() > deadline) throw new Error(`screen never showed ${what}:\n${text}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    killServer: () => {
      try {
        tmux('kill-server');
      } catch {
        // the server already ended with its last pane
      }
    },
  };
}
