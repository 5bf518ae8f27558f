/**
 * `hookpm session` on a real pseudo-terminal (cli.md section 4): tmux runs the session in a
 * detached pane, keys are typed with send-keys and the screen is read with capture-pane.
 * tmux is required: installed on first use, or the tests fail with the command to run
 * (test/helpers/system-package.ts).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { group, sleeperGroup, useSessionWorkspace } from '../helpers/session-workspace.js';
import { goneWithin, isAlive, waitForPid } from '../helpers/pids.js';
import { useTmux } from '../helpers/tmux.js';

const ws = useSessionWorkspace();
let socket: string;

const {
  tmux,
  startHookpm,
  waitForScreen: waitForPane,
  screen: paneScreen,
  killServer,
} = useTmux(() => socket);

beforeEach(async () => {
  socket = join(ws.dir, 'tmux.sock');
});
afterEach(async () => {
  killServer();
});

/** Starts `hookpm session` in a detached 160x50 pane; the shell prints EXITED:<code> after it. */
function startPane(): void {
  startHookpm('k', { cwd: ws.repo, env: ws.env, args: ['session'], cols: 160, rows: 50 });
}

const screen = (): string => paneScreen('k');

const waitForScreen = (test: (text: string) => boolean, what: string): Promise<string> =>
  waitForPane('k', test, what);

/** Types a line as a person would: the literal text, then Enter. */
function type(line: string): void {
  tmux('send-keys', '-t', 'k', '-l', line);
  tmux('send-keys', '-t', 'k', 'Enter');
}

const count = (text: string, needle: string): number => text.split(needle).length - 1;

describe('hookpm session on a TTY (cli.md section 4)', () => {
  it('R1: /reload typed at the prompt picks up an edited user hooks file, and a typed dispatch prints its result', async () => {
    await ws.writeUserHooks({ PreToolUse: group('true', 'Bash') });
    startPane();
    await waitForScreen(
      (t) => t.includes('session started') && t.includes('hookpm> '),
      'the prompt',
    );

    await ws.writeUserHooks({
      PreToolUse: group(
        `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"typed by hand"}}'`,
        'Bash',
      ),
    });
    type('/reload');
    await waitForScreen(
      (t) => t.includes('reloaded: snapshot') && count(t, 'hookpm> ') >= 2,
      'the reload report',
    );

    type('PreToolUse {"tool_name":"Bash","tool_input":{"command":"ls"}}');
    const shown = await waitForScreen((t) => t.includes('permission: deny'), 'the dispatch result');
    expect(shown).toContain('PreToolUse: 1 handler(s) ran');
    expect(shown).toContain('permission: deny: typed by hand');
    expect(shown).toContain('PreToolUse:0:0');

    type('/hooks');
    await waitForScreen((t) => t.includes('ORIGIN') && t.includes('user'), 'the hooks table');
    type('Nope {}');
    await waitForScreen(
      (t) => t.includes('error[E_USAGE]: unknown event "Nope"'),
      'the usage error',
    );
    type('/quit');
    await waitForScreen((t) => t.includes('EXITED:0'), 'a clean exit');
  });

  it('T4: on a TTY the session asks the workspace trust question, listing the hooks, and Allow once loads the project hooks', async () => {
    await ws.writeUserHooks({});
    await mkdir(join(ws.repo, '.deepagents'), { recursive: true });
    await writeFile(
      join(ws.repo, '.deepagents', 'hooks.json'),
      JSON.stringify({ hooks: { Stop: group(`echo 'project says stop' >&2; exit 2`) } }),
    );
    startPane();
    await waitForScreen((t) => t.includes('Choice [1-4]:'), 'the trust question');
    type('1');
    await waitForScreen(
      (t) => t.includes('session started') && t.includes('1 handler(s)'),
      'the start report',
    );
    // The question showed the command, so the feedback is its second sighting.
    expect(screen()).toContain("  Stop  echo 'project says stop' >&2; exit 2");
    type('Stop {}');
    await waitForScreen(
      (t) => count(t, 'project says stop') >= 2 && t.includes('continue loop: yes'),
      "the project handler's feedback",
    );
    type('/quit');
    await waitForScreen((t) => t.includes('EXITED:0'), 'a clean exit');
  });

  it('Ctrl+C while a typed dispatch runs kills its handler at once and ends the session with 130', async () => {
    const pidFile = join(ws.dir, 'pid');
    await ws.writeUserHooks({ Stop: sleeperGroup(pidFile) });
    startPane();
    await waitForScreen((t) => t.includes('hookpm> '), 'the prompt');
    type('Stop {}');
    const pid = await waitForPid(pidFile);
    expect(isAlive(pid)).toBe(true);
    const started = Date.now();
    tmux('send-keys', '-t', 'k', 'C-c');
    await waitForScreen((t) => t.includes('EXITED:130'), 'the interrupted exit');
    expect(Date.now() - started).toBeLessThan(2000);
    expect(await goneWithin(pid)).toBe(true);
  });
});
