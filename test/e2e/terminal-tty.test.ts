/**
 * On a real pseudo-terminal: tmux runs hookpm in a detached 80-column pane and the screen is read
 * with capture-pane (-J joins lines the terminal wrapped, so a line wider than the pane shows as
 * one long line; -e keeps the colour escapes). tmux is required (installed on first use, or the
 * tests fail with the command; test/helpers/system-package.ts). Checked: `hooks` and `search`
 * fitted to 80 columns, the download progress line cleared before the consent question, diff lines
 * coloured on the terminal and never with NO_COLOR.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { displayWidth } from '../../src/cli/render/width.js';
import { BIN, runBin } from '../helpers/built-bin.js';
import {
  publishTree,
  startPluginRegistry,
  type ServedRegistry,
} from '../helpers/plugin-registry.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';
import { useTmux } from '../helpers/tmux.js';

let home: TempHome;
let socket: string;
let pane = 0;

const { tmux, startHookpm, waitForScreen: waitForPane, killServer } = useTmux(() => socket);

beforeEach(async () => {
  home = await makeTempHome('hookpm-tty-');
  socket = join(home.dir, 'tmux.sock');
});
afterEach(async () => {
  killServer();
  await home.cleanup();
});

/** Runs `hookpm <args>` in a new detached 80x40 pane; the shell prints EXITED:<code> after it. */
function startPane(args: string[], env: Record<string, string> = {}): string {
  pane += 1;
  const name = `p${pane}`;
  startHookpm(name, { cwd: home.dir, env: home.env, extra: env, args, cols: 80, rows: 40 });
  return name;
}

const waitForScreen = (
  name: string,
  test: (text: string) => boolean,
  what: string,
  colour = false,
): Promise<string> => waitForPane(name, test, what, { colour, timeoutMs: 15_000 });

const exited = (text: string): boolean => /EXITED:\d+/.test(text);
const linesOf = (text: string): string[] => text.split('\n').filter((l) => !/^EXITED:/.test(l));

async function ok(...args: string[]): Promise<void> {
  const run = await runBin(args, { env: home.env, cwd: home.dir });
  expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(0);
}

describe('output fitted to an 80-column terminal', () => {
  it('`hookpm hooks`: no line wider than 80, rows whole, a long command on its own line', async () => {
    const command =
      'node "$HOME/scripts/check-the-shell-command.mjs" --mode strict --audit-log "$HOME/.guard/audit.log" --explain';
    await mkdir(join(home.dir, '.deepagents'), { recursive: true });
    await writeFile(
      join(home.dir, '.deepagents', 'hooks.json'),
      JSON.stringify({
        hooks: {
          PreToolUse: [
            {
              matcher: '^mcp__.*__(shell|exec|execute|run_command|bash)$',
              hooks: [{ type: 'command', command }],
            },
            { matcher: 'Bash', hooks: [{ type: 'command', command: 'true' }] },
          ],
        },
      }),
    );
    const name = startPane(['hooks']);
    const text = await waitForScreen(name, exited, 'the end of hooks');
    expect(text).toContain('EXITED:0');
    const lines = linesOf(text).filter((l) => l !== '');
    for (const line of lines) expect(displayWidth(line), line).toBeLessThanOrEqual(80);
    expect(lines[0]).toMatch(/^ID +ORIGIN +MATCHER +IF +TIMEOUT +COMMAND$/);
    expect(lines[1]).toMatch(/^PreToolUse:0:0 +user +\^mcp__\S* +600s$/);
    // the command, whole, broken only at its spaces, on the lines under its row
    const under = lines.slice(
      2,
      lines.findIndex((l) => l.startsWith('PreToolUse:1:0')),
    );
    expect(under.map((l) => l.trim()).join(' ')).toBe(command);
    expect(lines.find((l) => l.startsWith('PreToolUse:1:0'))).toMatch(/ Bash +600s +true$/);
  });

  it('`hookpm search`: one line per plugin within 80 columns, descriptions cut with …', async () => {
    const name = startPane(['search']);
    const text = await waitForScreen(name, exited, 'the end of search');
    expect(text).toContain('EXITED:0');
    const lines = linesOf(text).filter((l) => l !== '');
    expect(lines[0]).toMatch(/^ID +VERSION +EVENTS +DESCRIPTION$/);
    expect(lines.find((l) => l.startsWith('guard@examples '))).toMatch(
      / 1\.3\.0 +PreToolUse +Blocks .*…$/,
    );
    for (const line of lines) expect(displayWidth(line), line).toBeLessThanOrEqual(80);
    // the same command off a terminal: not fitted, as before
    const piped = await runBin(['search'], { env: home.env, cwd: home.dir });
    expect(piped.stdout).toContain(
      'Blocks destructive shell commands (rm -rf of / ~ . or outside the project, gi...',
    );
  });
});

describe('the download progress line is cleared', () => {
  let acme: ServedRegistry;
  afterEach(() => acme.close());

  it('the consent question starts on a clean line, not after `downloading x: 2.7 KiB / 2.7 KiB`', async () => {
    acme = await startPluginRegistry('acme');
    await ok('registry', 'add', 'acme', acme.url);
    await publishTree(acme, 'slow', '1.0.0', {
      '.claude-plugin/plugin.json': { json: { name: 'slow', version: '1.0.0' } },
      'hooks/hooks.json': {
        json: { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'true' }] }] } },
      },
      'README.md': `# slow\n\n${'padding '.repeat(300)}\n`,
    });
    const name = startPane(['install', 'slow@acme']);
    const text = await waitForScreen(name, (t) => t.includes('[y/N]'), 'the consent question');
    const lines = linesOf(text);
    expect(lines).toContain('slow@acme 1.0.0');
    expect(text).not.toMatch(/KiB\s*slow@acme/);
    expect(text).not.toContain('downloading');
    tmux('send-keys', '-t', name, 'n', 'Enter');
    await waitForScreen(name, exited, 'the end of install');
  });
});

describe('Ctrl+C during a download', () => {
  let acme: ServedRegistry;
  afterEach(() => acme.close());

  /** A registry whose tarball of `stalled` sends its first 16 KiB, then nothing more. */
  async function stalledRegistry(): Promise<void> {
    acme = await startPluginRegistry('acme');
    await ok('registry', 'add', 'acme', acme.url);
    await publishTree(acme, 'stalled', '1.0.0', {
      '.claude-plugin/plugin.json': { json: { name: 'stalled', version: '1.0.0' } },
      'hooks/hooks.json': {
        json: { hooks: { Stop: [{ hooks: [{ type: 'command', command: 'true' }] }] } },
      },
      // Incompressible, so the tarball is large enough to be cut.
      'README.md': randomBytes(192 * 1024).toString('base64'),
    });
    const path = '/tarballs/stalled-1.0.0.tgz';
    const bytes = acme.files.get(path) as Buffer;
    acme.handlers.set(path, (_req, res) => {
      res.setHeader('content-length', String(bytes.length));
      res.write(bytes.subarray(0, 16 * 1024));
    });
  }

  /** Every file and directory under `dir` named like a temporary: `.part` files, staging entries. */
  async function temporaries(dir: string): Promise<string[]> {
    const entries = await readdir(dir, { recursive: true }).catch(() => [] as string[]);
    return entries.filter((e) => e.endsWith('.part') || /(^|\/)\.staging\/./.test(e));
  }

  /** Waits (15 s at most) until the download has its `.part` file under `dir`. */
  async function downloadStarted(dir: string): Promise<void> {
    const deadline = Date.now() + 15_000;
    while ((await temporaries(dir)).every((e) => !e.endsWith('.part'))) {
      if (Date.now() > deadline) throw new Error('the download never started');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it('on a terminal: the progress line is cleared, the process exits 130, and no temporary file is left', async () => {
    await stalledRegistry();
    const name = startPane(['install', 'stalled@acme', '--yes']);
    await waitForScreen(name, (t) => t.includes('downloading'), 'the progress line');
    await downloadStarted(home.dir);
    tmux('send-keys', '-t', name, 'C-c');
    const text = await waitForScreen(name, exited, 'the end of install');
    expect(text).toContain('EXITED:130');
    expect(text).not.toContain('downloading');
    expect(await temporaries(home.dir)).toEqual([]);
    expect(
      JSON.parse((await runBin(['list', '--json'], { env: home.env, cwd: home.dir })).stdout)
        .plugins,
    ).toEqual([]);
  });

  it('off a terminal: a child process sent SIGINT exits 130 and leaves no temporary file', async () => {
    await stalledRegistry();
    const child = spawn(process.execPath, [BIN, 'install', 'stalled@acme', '--yes'], {
      cwd: home.dir,
      env: home.env,
      stdio: 'ignore',
    });
    await downloadStarted(home.dir);
    const code = new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.kill('SIGINT');
    expect(await code).toBe(130);
    expect(await temporaries(home.dir)).toEqual([]);
  });
});

describe('colour on a terminal, never with NO_COLOR', () => {
  it('a review diff: added lines green on the terminal; no escape at all with NO_COLOR', async () => {
    await ok('install', 'guard@examples@1.0.0', '--yes');
    const name = startPane(['review', 'guard@examples@1.1.0']);
    const coloured = await waitForScreen(name, exited, 'the review', true);
    expect(coloured).toMatch(/\u001b\[32m {2}\+ PreToolUse command/);
    const plain = startPane(['review', 'guard@examples@1.1.0'], { NO_COLOR: '1' });
    const text = await waitForScreen(plain, exited, 'the review without colour', true);
    expect(text).toContain('  + PreToolUse command');
    expect(text).not.toContain('\u001b[3');
    // off a terminal: no colour either
    const piped = await runBin(['review', 'guard@examples@1.1.0'], {
      env: home.env,
      cwd: home.dir,
    });
    expect(piped.stdout).toContain('  + PreToolUse command');
    expect(piped.stdout).not.toContain('\u001b[');
  });
});

describe('Tab completion at the session prompt', () => {
  it('Tab completes an event name and a slash command on the line being typed', async () => {
    await mkdir(join(home.dir, '.deepagents'), { recursive: true });
    await writeFile(
      join(home.dir, '.deepagents', 'hooks.json'),
      JSON.stringify({
        hooks: { Stop: [{ hooks: [{ type: 'command', command: 'echo tabbed >&2' }] }] },
      }),
    );
    const name = startPane(['session']);
    await waitForScreen(name, (t) => t.includes('hookpm> '), 'the prompt');
    tmux('send-keys', '-t', name, '-l', 'Sto');
    tmux('send-keys', '-t', name, 'Tab');
    await waitForScreen(name, (t) => /hookpm> Stop $/m.test(t), 'the completed event');
    tmux('send-keys', '-t', name, 'Tab');
    await waitForScreen(name, (t) => /hookpm> Stop \{\}$/m.test(t), 'the completed payload');
    tmux('send-keys', '-t', name, 'Enter');
    await waitForScreen(name, (t) => t.includes('Stop: 1 handler(s) ran'), 'the dispatch');
    tmux('send-keys', '-t', name, '-l', '/qu');
    tmux('send-keys', '-t', name, 'Tab');
    await waitForScreen(name, (t) => /hookpm> \/quit$/m.test(t), 'the completed command');
    tmux('send-keys', '-t', name, 'Enter');
    await waitForScreen(name, (t) => t.includes('EXITED:0'), 'a clean exit');
  });
});
