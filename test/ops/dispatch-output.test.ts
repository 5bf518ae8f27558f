import { describe, expect, it } from 'vitest';
import type { EventName } from '../../src/hooks/events.js';
import { dispatchEvent } from '../../src/engine/dispatch.js';
import { argv, codes, fixture, group, printsJson, sh, userSnapshot } from './dispatch-helpers.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tmp = useTempDir('dispatch-output');

/** Dispatches `event` to one match-all group of shell commands, each its own handler. */
function dispatchTo(
  event: EventName,
  commands: string[],
  input: Record<string, unknown> = {},
  count = 0,
) {
  const snapshot = userSnapshot(tmp.dir, { [event]: [group(null, ...commands.map((c) => sh(c)))] });
  return dispatchEvent(snapshot, event, input, { continuationCount: count });
}

const specific = (event: EventName, fields: Record<string, unknown>) =>
  printsJson({ hookSpecificOutput: { hookEventName: event, ...fields } });

describe('exit codes and output (engine.md section 8, K and L)', () => {
  it('K1: exit 0 JSON (after a byte-order mark and whitespace) is applied; whitespace-only stdout is no output', async () => {
    const result = await dispatchTo(
      'Notification',
      [
        `printf '\\357\\273\\277  {"systemMessage":"bom ok"}\\n\\n'`,
        `printf '  \\n\\t\\n'`,
        fixture('print-json.sh'),
      ],
      { notification_type: 'idle' },
    );
    expect(result.systemMessages).toEqual(['bom ok', 'hello from json']);
    expect(result.diagnostics).toEqual([]);
  });

  it('K1: plain stdout is context on UserPromptSubmit and SessionStart, and malformed_json elsewhere', async () => {
    const prompt = await dispatchTo('UserPromptSubmit', [fixture('print-text.sh')]);
    expect(prompt.context).toEqual(['plain line one\nplain line two']);
    const start = await dispatchTo('SessionStart', [fixture('print-text.sh')], {
      source: 'startup',
    });
    expect(start.context).toEqual(['plain line one\nplain line two']);
    const tool = await dispatchTo('PreToolUse', [fixture('print-text.sh')], { tool_name: 'Bash' });
    expect(tool.context).toEqual([]);
    expect(codes(tool)).toEqual(['malformed_json']);
  });

  it('K2: exit 2 ignores stdout and blocks with the trimmed stderr, or the generic reason', async () => {
    const snapshot = userSnapshot(tmp.dir, {
      PreToolUse: [group('Bash', argv([fixture('exit-with.sh'), '2', '  no rm please \n']))],
      PostToolUse: [group(null, sh(`${printsJson({ systemMessage: 'ignored' })}; exit 2`))],
    });
    const pre = await dispatchEvent(snapshot, 'PreToolUse', { tool_name: 'Bash' });
    expect(pre.permission).toEqual({ decision: 'deny', reason: 'no rm please', interrupt: false });
    const post = await dispatchEvent(snapshot, 'PostToolUse', { tool_name: 'Bash' });
    expect(post.feedback).toEqual(['Hook blocked the operation']);
    expect(post.systemMessages).toEqual([]);
  });

  it('K3: any other exit code is nonzero_exit with the code and stderr tail, and its output is not applied', async () => {
    const result = await dispatchTo('UserPromptSubmit', [
      `${printsJson({ continue: false, stopReason: 'x' })}; echo 'it broke' >&2; exit 7`,
    ]);
    expect(result.continue).toBe(true);
    expect(codes(result)).toEqual(['nonzero_exit']);
    expect(result.diagnostics[0]!.message).toContain('exit code 7');
    expect(result.diagnostics[0]!.message).toContain('it broke');
  });

  it('L1: wrong types and a decision other than "block" drop the output; unknown keys give unsupported_field', async () => {
    const result = await dispatchTo(
      'Notification',
      [
        printsJson({ systemMessage: 42 }),
        printsJson({ decision: 'approve', systemMessage: 'dropped' }),
        printsJson({ systemMessage: 'kept', extra: true }),
      ],
      { notification_type: 'idle' },
    );
    expect(result.systemMessages).toEqual(['kept']);
    expect(codes(result)).toEqual(['invalid_output', 'invalid_output', 'unsupported_field']);
  });

  it('L1: real handlers: {"continue": false, "stopReason": null} stops, "approve" allows on PreToolUse, an {"async": true} first line is ignored', async () => {
    const stop = await dispatchTo('UserPromptSubmit', [
      printsJson({ continue: false, stopReason: null }),
    ]);
    expect(stop).toMatchObject({ continue: false, stopReason: null, diagnostics: [] });
    const approve = await dispatchTo(
      'PreToolUse',
      [printsJson({ decision: 'approve', reason: 'fine' })],
      { tool_name: 'Bash' },
    );
    expect(approve.permission).toEqual({ decision: 'allow', reason: 'fine', interrupt: false });
    const background = await dispatchTo(
      'PreToolUse',
      [`echo '{"async":true}'; ${specific('PreToolUse', { permissionDecision: 'deny' })}`],
      { tool_name: 'Bash' },
    );
    expect(background.permission).toBeNull();
    expect(background.diagnostics).toMatchObject([
      { code: 'unsupported_field', severity: 'info', handler: 'PreToolUse:0:0' },
    ]);
  });

  it('L2: hookSpecificOutput naming another event is mismatched_output and its part is ignored', async () => {
    const result = await dispatchTo('UserPromptSubmit', [
      printsJson({
        systemMessage: 'top kept',
        hookSpecificOutput: { hookEventName: 'Stop', additionalContext: 'no' },
      }),
      specific('UserPromptSubmit', { additionalContext: 'yes' }),
    ]);
    expect(result.context).toEqual(['yes']);
    expect(result.systemMessages).toEqual(['top kept']);
    expect(codes(result)).toEqual(['mismatched_output']);
  });

  it('L3: updatedInput is not applied and drops an allow in the same output, while a deny stays', async () => {
    const result = await dispatchTo(
      'PreToolUse',
      [specific('PreToolUse', { permissionDecision: 'allow', updatedInput: { command: 'ls' } })],
      { tool_name: 'Bash' },
    );
    expect(result.permission).toBeNull();
    expect(codes(result)).toContain('unsupported_field');
    const deny = await dispatchTo(
      'PreToolUse',
      [
        specific('PreToolUse', {
          permissionDecision: 'deny',
          permissionDecisionReason: 'r',
          updatedInput: {},
        }),
      ],
      { tool_name: 'Bash' },
    );
    expect(deny.permission).toEqual({ decision: 'deny', reason: 'r', interrupt: false });
  });
});

describe('reduction (engine.md section 8, M)', () => {
  it('M1: one continue:false makes the result continue:false without discarding the other handlers', async () => {
    const result = await dispatchTo('UserPromptSubmit', [
      printsJson({ continue: false, stopReason: 'halt' }),
      printsJson({ systemMessage: 'still here' }),
    ]);
    expect(result.continue).toBe(false);
    expect(result.systemMessages).toEqual(['still here']);
  });

  it('M2: a stopReason with continue:true is ignored; a BLOCK-policy block sets an empty stop reason', async () => {
    const result = await dispatchTo(
      'PreCompact',
      [printsJson({ stopReason: 'not stopping' }), `echo 'compaction refused' >&2; exit 2`],
      { trigger: 'manual' },
    );
    expect(result.continue).toBe(false);
    expect(result.stopReason).toBe('compaction refused');
    expect(codes(result)).toEqual(['ignored_stop_reason']);
  });

  it('M3: system messages are all kept in order, except those with suppressOutput', async () => {
    const result = await dispatchTo(
      'SessionEnd',
      [
        printsJson({ systemMessage: 'one' }),
        printsJson({ systemMessage: 'hidden', suppressOutput: true }),
        printsJson({ systemMessage: 'three' }),
      ],
      { reason: 'exit' },
    );
    expect(result.systemMessages).toEqual(['one', 'three']);
  });

  it('M4: context is kept per handler in configuration order, plain stdout and additionalContext alike', async () => {
    const result = await dispatchTo('UserPromptSubmit', [
      `sleep 0.1; echo first`,
      specific('UserPromptSubmit', { additionalContext: 'second' }),
      `echo third`,
    ]);
    expect(result.context).toEqual(['first', 'second', 'third']);
  });

  it('M5: permission ranks allow < ask < deny and among equals the first reason wins', async () => {
    const decide = (permissionDecision: string, reason: string) =>
      specific('PreToolUse', { permissionDecision, permissionDecisionReason: reason });
    const result = await dispatchTo(
      'PreToolUse',
      [decide('allow', 'a1'), decide('ask', 'q1'), decide('ask', 'q2'), decide('allow', 'a2')],
      { tool_name: 'Bash' },
    );
    expect(result.permission).toEqual({ decision: 'ask', reason: 'q1', interrupt: false });
    const request = await dispatchTo(
      'PermissionRequest',
      [
        specific('PermissionRequest', { decision: { behavior: 'allow' } }),
        specific('PermissionRequest', {
          decision: { behavior: 'deny', message: 'nope', interrupt: true },
        }),
      ],
      { tool_name: 'Bash' },
    );
    expect(request.permission).toEqual({ decision: 'deny', reason: 'nope', interrupt: true });
  });

  it('M6: suppressOriginalPrompt is OR-ed across UserPromptSubmit handlers', async () => {
    const result = await dispatchTo('UserPromptSubmit', [
      specific('UserPromptSubmit', { suppressOriginalPrompt: false }),
      specific('UserPromptSubmit', { suppressOriginalPrompt: true }),
    ]);
    expect(result.suppressOriginalPrompt).toBe(true);
  });

  it('M7: a system message over 10,000 characters is cut, with output_capped naming the handler', async () => {
    const result = await dispatchTo(
      'Notification',
      [printsJson({ systemMessage: 'm'.repeat(12_000) })],
      {
        notification_type: 'idle',
      },
    );
    expect(result.systemMessages[0]).toHaveLength(10_000);
    expect(result.diagnostics).toEqual([
      expect.objectContaining({
        code: 'output_capped',
        handler: 'Notification:0:0',
        origin: 'user',
      }),
    ]);
  });
});

describe('Stop continuations (engine.md section 9, O)', () => {
  it('O1: a Stop block and a Stop additionalContext both request a continuation, as feedback', async () => {
    const result = await dispatchTo('Stop', [
      `echo 'tests fail' >&2; exit 2`,
      specific('Stop', { additionalContext: 'also lint' }),
    ]);
    expect(result.continueLoop).toBe(true);
    expect(result.feedback).toEqual(['tests fail', 'also lint']);
    expect(result.context).toEqual([]);
  });

  it('O2: continue:false on Stop overrides any block', async () => {
    const result = await dispatchTo('Stop', [
      printsJson({ decision: 'block', reason: 'go on' }),
      printsJson({ continue: false, stopReason: 'enough' }),
    ]);
    expect(result.continueLoop).toBe(false);
    expect(result.continue).toBe(false);
    expect(result.stopReason).toBe('enough');
  });

  it('O3: a Stop hook that always blocks yields continueLoop true for counts 0-7 and continuation_cap at 8', async () => {
    const snapshot = userSnapshot(tmp.dir, {
      Stop: [group(null, sh(`echo 'keep going' >&2; exit 2`))],
    });
    const results = await Promise.all(
      Array.from({ length: 9 }, (_, count) =>
        dispatchEvent(snapshot, 'Stop', {}, { continuationCount: count }),
      ),
    );
    expect(results.slice(0, 8).map((r) => r.continueLoop)).toEqual(Array(8).fill(true));
    expect(results.slice(0, 8).every((r) => r.diagnostics.length === 0)).toBe(true);
    expect(results[8]!.continueLoop).toBe(false);
    expect(results[8]!.feedback).toEqual([]);
    expect(codes(results[8]!)).toEqual(['continuation_cap']);
  });

  it('SubagentStop: a block is context, and is ignored with continuation_guard when stop_hook_active', async () => {
    const block = `echo 'check the diff' >&2; exit 2`;
    const fresh = await dispatchTo('SubagentStop', [block], { agent_type: 'x' });
    expect(fresh.context).toEqual(['check the diff']);
    const active = await dispatchTo('SubagentStop', [block], {
      agent_type: 'x',
      stop_hook_active: true,
    });
    expect(active.context).toEqual([]);
    expect(codes(active)).toEqual(['continuation_guard']);
  });
});
