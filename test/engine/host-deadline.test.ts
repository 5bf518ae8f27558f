import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchEvent } from '../../src/engine/dispatch.js';
import type { DispatchRecord } from '../../src/engine/dispatch-options.js';
import {
  group,
  makeTempDir,
  printsJson,
  removeDir,
  sh,
  userSnapshot,
} from '../ops/dispatch-helpers.js';

// engine.md X6 with a host's deadline (DispatchOptions.deadline, what `hookpm wire` derives from the
// agent's), and the host's notes (DispatchOptions.notes).

let work: string;
beforeAll(() => {
  work = makeTempDir('host-deadline');
});
afterAll(() => removeDir(work));

const DENY = printsJson({
  hookSpecificOutput: {
    hookEventName: 'PreToolUse',
    permissionDecision: 'deny',
    permissionDecisionReason: 'no',
  },
});
const input = { tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: '' };

describe('a host deadline (X6)', () => {
  it('X6: a handler of timeout 3600 is ended at the host deadline; the others keep their results', async () => {
    const snapshot = userSnapshot(work, {
      PreToolUse: [group(null, sh('sleep 3600', { timeout: 3600 }), sh(DENY))],
    });
    const started = performance.now();
    const result = await dispatchEvent(snapshot, 'PreToolUse', input, {
      cwd: work,
      deadline: performance.now() + 1500,
    });
    expect(performance.now() - started).toBeLessThan(4000);
    expect(result.permission).toMatchObject({ decision: 'deny', reason: 'no' });
    expect(result.runs.map((r) => r.timedOut)).toEqual([true, false]);
    const timeout = result.diagnostics.find((d) => d.code === 'timeout');
    expect(timeout?.message).toMatch(
      /^ended at the host's deadline .*before its own 3600s timeout/,
    );
  });

  it('X6: a handler that ignores SIGTERM is killed after the grace and the answer still comes within about a second of the deadline', async () => {
    const snapshot = userSnapshot(work, {
      PreToolUse: [group(null, sh("trap '' TERM; sleep 3600", { timeout: 3600 }), sh(DENY))],
    });
    const deadline = performance.now() + 1500;
    const result = await dispatchEvent(snapshot, 'PreToolUse', input, { cwd: work, deadline });
    expect(performance.now() - deadline).toBeLessThan(1500);
    expect(result.permission?.decision).toBe('deny');
  });

  it('X6: past the host deadline no handler is started: each is a timeout, "not started"', async () => {
    const marker = `${work}/started`;
    const snapshot = userSnapshot(work, {
      PreToolUse: [group(null, sh(`touch ${marker}`))],
    });
    const result = await dispatchEvent(snapshot, 'PreToolUse', input, {
      cwd: work,
      deadline: performance.now() - 1,
    });
    expect(result.runs[0]?.timedOut).toBe(true);
    expect(result.diagnostics.map((d) => d.message)).toEqual([
      expect.stringMatching(/^not started at the host's deadline/),
    ]);
    expect(existsSync(marker)).toBe(false);
  });

  it("X6: a handler's own timeout shorter than the host deadline stays its deadline (timed out after Ns)", async () => {
    const snapshot = userSnapshot(work, {
      PreToolUse: [group(null, sh('sleep 3600', { timeout: 0.3 }))],
    });
    const result = await dispatchEvent(snapshot, 'PreToolUse', input, {
      cwd: work,
      deadline: performance.now() + 60_000,
    });
    expect(result.diagnostics[0]?.message).toBe('timed out after 0.3s; no output applied');
  });
});

describe('host notes', () => {
  it('the notes come first among the result diagnostics and reach the log record, matched or not', async () => {
    const note = { code: 'cwd_unusable' as const, severity: 'warning' as const, message: 'why' };
    const records: DispatchRecord[] = [];
    const matched = userSnapshot(work, { PreToolUse: [group(null, sh('exit 1'))] });
    const ran = await dispatchEvent(matched, 'PreToolUse', input, {
      cwd: work,
      notes: [note],
      log: (r) => records.push(r),
    });
    expect(ran.diagnostics.map((d) => d.code)).toEqual(['cwd_unusable', 'nonzero_exit']);
    const none = await dispatchEvent(
      matched,
      'Stop',
      {},
      { notes: [note], log: (r) => records.push(r) },
    );
    expect(none.diagnostics).toEqual([note]);
    expect(records.map((r) => r.notes)).toEqual([[note], [note]]);
  });
});
