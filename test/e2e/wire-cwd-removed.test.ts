/**
 * docs/reference/rules/cli.md W2 and engine.md "Fail closed", with the built binary: an agent
 * whose working directory was removed while it ran still gets hookpm's answer to every event (a
 * guard's deny, never a crash the agent would take for "no opinion"), while any other command in
 * such a directory stops with a clear E_USAGE, as git does.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBinWorkspace } from '../helpers/bin-workspace.js';
import { BIN } from '../helpers/built-bin.js';
import { claudeBashPayload } from '../helpers/claude-payload.js';
import { writeClaudePlugin } from '../helpers/claude-plugin.js';

const ws = useBinWorkspace('wire-cwd-removed');
const DENY = `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"guard says no"}}'`;

/** `hookpm ...args` started in a directory removed just before (the shell entered it first). */
function inRemovedDirectory(args: string[], stdin = '') {
  const gone = join(ws.dir, `gone${ws.n}`);
  const script = 'mkdir -p "$GONE" && cd "$GONE" && rmdir "$GONE" && exec "$NODE" "$BIN" "$@"';
  return spawnSync('/bin/sh', ['-c', script, 'sh', ...args], {
    env: { ...ws.env(), GONE: gone, NODE: process.execPath, BIN },
    input: stdin,
    encoding: 'utf8',
    timeout: 30_000,
  });
}

describe('a working directory removed under hookpm', () => {
  it("W2, B1: `hookpm wire claude` still answers: the guard denies, in the payload's directory", async () => {
    const guard = await writeClaudePlugin(join(ws.dir, `plugins${ws.n}`, 'no'), 'no', {
      PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: DENY }] }],
    });
    expect((await ws.hookpm(['install', guard, '--yes'])).code).toBe(0);
    const run = inRemovedDirectory(['wire', 'claude'], claudeBashPayload(ws, 's1', 'ls'));
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).not.toContain('E_INTERNAL');
    const out = JSON.parse(run.stdout) as { hookSpecificOutput: Record<string, string> };
    expect(out.hookSpecificOutput.permissionDecision).toBe('deny');
    expect(out.hookSpecificOutput.permissionDecisionReason).toContain('guard says no');
  });

  it('any other command stops with E_USAGE saying so, never E_INTERNAL', () => {
    const run = inRemovedDirectory(['list']);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('error[E_USAGE]');
    expect(run.stderr).toContain('the working directory no longer exists');
    expect(run.stderr).not.toContain('E_INTERNAL');
  });
});
