import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { BIN } from '../helpers/built-bin.js';
import { useBinWorkspace } from '../helpers/bin-workspace.js';
import { group, sh } from '../helpers/hook-fixtures.js';
import { writeClaudePlugin } from '../helpers/claude-plugin.js';
import { useBubblewrap } from '../helpers/bubblewrap.js';

const run = promisify(execFile);

// engine.md X8: a handler that cannot be started because hookpm's process has run out of open
// files is the host's failure, not the handler's, so a blocking event is denied (fail closed).
// The shortage is real: the command runs under `ulimit -n 256`, and a preloaded script opens
// /dev/null until open(2) fails with EMFILE just before the handler's spawn (the only moment
// that matters; earlier, hookpm must still read its files), then closes them again.
const PRELOAD = exhaustFilesAt("options.args.includes('-c')");

/** The preload script: open files run out at each spawn whose `options` satisfy `test`. */
function exhaustFilesAt(test: string): string {
  return `
const { ChildProcess } = require('node:child_process');
const { openSync, closeSync } = require('node:fs');
const spawn = ChildProcess.prototype.spawn;
ChildProcess.prototype.spawn = function (options) {
  if (!(${test})) return spawn.call(this, options);
  const fds = [];
  try { for (;;) fds.push(openSync('/dev/null', 'r')); } catch {}
  try { return spawn.call(this, options); } finally { for (const fd of fds) closeSync(fd); }
};
`;
}

const ws = useBinWorkspace('e2e-launch-shortage', '.deepagents');

// A plugin that declares capabilities runs under bubblewrap (security.md Z4).
useBubblewrap();

async function runShort(
  event: string,
  payload: object,
  script = PRELOAD,
  command = 'true',
): Promise<ShortResult> {
  const args = ['run', event, '--payload', JSON.stringify(payload), '--json'];
  const preload = join(ws.dir, `exhaust-files${ws.n}.cjs`);
  await writeFile(preload, script);
  await writeFile(
    join(ws.home, '.deepagents', 'hooks.json'),
    JSON.stringify({ hooks: { [event]: [group(null, sh(command))] } }),
  );
  const { stdout } = await run(
    'sh',
    ['-c', 'ulimit -n 256 && exec "$0" "$@"', process.execPath, BIN, ...args],
    { cwd: ws.repo, env: ws.env({ NODE_OPTIONS: `--require=${preload}` }) },
  ).catch((error: { stdout: string; stderr: string }) => {
    throw new Error(`hookpm run failed: ${error.stderr}`);
  });
  return JSON.parse(stdout) as ShortResult;
}

/** What `hookpm run --json` prints, as far as these tests read it. */
interface ShortResult {
  permission: { decision: string; reason: string } | null;
  diagnostics: { code: string; message: string }[];
}

describe('a handler the machine has no resources to start (engine.md X8)', () => {
  it('X8: EMFILE at the launch of a PreToolUse handler is a deny naming the shortage and a fix', async () => {
    const result = await runShort('PreToolUse', {
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
    });
    expect(result.diagnostics.map((d) => d.code)).toContain('launch_failed');
    expect(result.permission?.decision).toBe('deny');
    expect(result.permission?.reason).toMatch(
      /^hookpm fails closed: handler PreToolUse:0:0 of user hooks did not run: \/bin\/sh cannot be started: hookpm has too many files open \(EMFILE\); close programs or raise the limit \(ulimit -n/,
    );
  });

  it('X8: a watchdog that cannot be started (EMFILE) leaves the handler to run and decide', async () => {
    // The shortage hits only the watchdog's spawn (group-watchdog.ts); the handler's finds files.
    const script = exhaustFilesAt("options.args.includes('hookpm-watchdog')");
    const deny = JSON.stringify({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'guarded',
      },
    });
    const result = await runShort(
      'PreToolUse',
      { tool_name: 'Bash', tool_input: { command: 'ls' } },
      script,
      `printf '%s' '${deny}'`,
    );
    expect(result.permission).toMatchObject({ decision: 'deny', reason: 'guarded' });
    expect(result.diagnostics).toEqual([]);
  });

  it('X8, Z6: EMFILE at the launch of a confined handler (bwrap) is a deny naming the shortage', async () => {
    const plugin = await writeClaudePlugin(
      join(ws.dir, `plugin${ws.n}`),
      'boxed',
      { PreToolUse: [group(null, sh('true'))] },
      { capabilities: { network: false, write: [] } },
    );
    const installed = await ws.hookpm(['install', plugin, '--yes']);
    expect(installed.code, installed.stderr).toBe(0);
    const script = exhaustFilesAt("options.file.endsWith('bwrap')");
    const result = await runShort(
      'PreToolUse',
      { tool_name: 'Bash', tool_input: { command: 'ls' } },
      script,
    );
    expect(result.diagnostics.map((d) => d.code)).toContain('launch_failed');
    expect(result.permission?.decision).toBe('deny');
    expect(result.permission?.reason).toMatch(
      /^hookpm fails closed: handler PreToolUse:\d+:0 of plugin boxed@local did not run: \S*bwrap cannot be started: hookpm has too many files open \(EMFILE\)/,
    );
  });
});
