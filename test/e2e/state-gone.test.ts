/**
 * docs/reference/rules/engine.md B3 for a state file that is gone, with the built binary: a store
 * whose `state.json` was deleted while plugins stay installed cannot know which of them would run,
 * so a blocking event fails closed (a new session through `hookpm wire claude`, and `hookpm run`),
 * naming the file and `hookpm doctor`; a fresh home, with nothing installed, has nothing to guard.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBinWorkspace } from '../helpers/bin-workspace.js';
import { claudeBashPayload } from '../helpers/claude-payload.js';
import { writeClaudePlugin } from '../helpers/claude-plugin.js';

const ws = useBinWorkspace('state-gone');
const DENY = `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"guard says no"}}'`;

async function wireBash(session: string) {
  const run = await ws.hookpm(['wire', 'claude'], { stdin: claudeBashPayload(ws, session, 'ls') });
  expect(run.code, run.stderr).toBe(0);
  return run.stdout === ''
    ? null
    : (JSON.parse(run.stdout) as { hookSpecificOutput: Record<string, string> });
}

async function installGuard(): Promise<void> {
  const guard = await writeClaudePlugin(join(ws.dir, `plugins${ws.n}`, 'no'), 'no', {
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: DENY }] }],
  });
  const run = await ws.hookpm(['install', guard, '--yes']);
  expect(run.code, run.stderr).toBe(0);
}

describe('a state file that is gone (B3)', () => {
  it('B3: with plugins still installed, a new session and `hookpm run` deny, naming the file and `hookpm doctor`', async () => {
    await installGuard();
    expect((await wireBash('before'))?.hookSpecificOutput.permissionDecision).toBe('deny');
    await rm(join(ws.home, 'hookpm', 'data', 'state.json'));
    const out = await wireBash('after');
    expect(out?.hookSpecificOutput.permissionDecision).toBe('deny');
    const reason = out?.hookSpecificOutput.permissionDecisionReason ?? '';
    expect(reason).toMatch(/hookpm fails closed/);
    expect(reason).toContain('state.json is missing');
    expect(reason).toContain('hookpm doctor');
    const payload = JSON.stringify({ tool_name: 'Bash', tool_input: { command: 'ls' } });
    const run = await ws.hookpm(['run', 'PreToolUse', '--payload', '-', '--json'], {
      stdin: payload,
    });
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as { permission: { decision: string } | null };
    expect(result.permission?.decision).toBe('deny');
    const doctor = await ws.hookpm(['doctor']);
    expect(doctor.stdout + doctor.stderr).toContain(
      'state.json is missing while 1 plugin is installed in the store: every event that can block fails closed',
    );
    expect(doctor.code).not.toBe(0);
    // Installing again writes a state: the plugin runs as itself, and the event is its deny.
    await installGuard();
    const again = await wireBash('again');
    expect(again?.hookSpecificOutput.permissionDecisionReason).toContain('guard says no');
  });

  it('B3: a fresh home, with nothing installed and no state file, answers nothing', async () => {
    expect(await wireBash('fresh')).toBeNull();
  });
});
