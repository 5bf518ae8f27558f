import { describe, expect, it } from 'vitest';
import { buildPayload } from '../../src/engine/payload.js';

const ctx = { sessionId: 'abc123', cwd: '/work/proj' };

describe('X2: the stdin payload', () => {
  it('X2: common fields come first, permission_mode defaults to "default", then the event fields', () => {
    const payload = buildPayload(
      'PreToolUse',
      { tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 'toolu_1' },
      { ...ctx, transcriptPath: '/t/transcript.jsonl' },
    );
    expect(JSON.stringify(payload)).toBe(
      JSON.stringify({
        session_id: 'abc123',
        transcript_path: '/t/transcript.jsonl',
        cwd: '/work/proj',
        permission_mode: 'default',
        hook_event_name: 'PreToolUse',
        tool_name: 'Bash',
        tool_input: { command: 'ls' },
        tool_use_id: 'toolu_1',
      }),
    );
  });

  it('X2: transcript_path is omitted when unknown', () => {
    expect(buildPayload('SessionStart', { source: 'startup' }, ctx)).not.toHaveProperty(
      'transcript_path',
    );
  });

  it('X2: the caller can never contradict hook_event_name, session_id or cwd', () => {
    const payload = buildPayload(
      'PreToolUse',
      { hook_event_name: 'Stop', session_id: 'other', cwd: '/elsewhere', tool_name: 'Bash' },
      ctx,
    );
    expect(payload).toMatchObject({
      hook_event_name: 'PreToolUse',
      session_id: 'abc123',
      cwd: '/work/proj',
      tool_name: 'Bash',
    });
  });

  it('X2: permission_mode and transcript_path come from the context, else from the input', () => {
    const input = { permission_mode: 'plan', transcript_path: '/in.jsonl' };
    expect(buildPayload('Notification', input, ctx)).toMatchObject(input);
    const fromCtx = buildPayload('Notification', input, {
      ...ctx,
      permissionMode: 'acceptEdits',
      transcriptPath: '/ctx.jsonl',
    });
    expect(fromCtx).toMatchObject({
      permission_mode: 'acceptEdits',
      transcript_path: '/ctx.jsonl',
    });
  });

  it.each([
    [undefined, false],
    [0, false],
    [1, true],
    [8, true],
  ])('X2: on Stop with continuationCount %s, stop_hook_active is %s', (count, active) => {
    const payload = buildPayload(
      'Stop',
      {},
      count === undefined ? ctx : { ...ctx, continuationCount: count },
    );
    expect(payload['stop_hook_active']).toBe(active);
  });

  it('X2: SubagentStop gets stop_hook_active too; a boolean given by the caller is kept', () => {
    expect(buildPayload('SubagentStop', {}, { ...ctx, continuationCount: 2 })).toMatchObject({
      stop_hook_active: true,
    });
    const given = buildPayload(
      'Stop',
      { stop_hook_active: false },
      { ...ctx, continuationCount: 3 },
    );
    expect(given['stop_hook_active']).toBe(false);
  });

  it('X2: events other than Stop and SubagentStop get no stop_hook_active', () => {
    const payload = buildPayload('PostToolUse', {}, { ...ctx, continuationCount: 3 });
    expect(payload).not.toHaveProperty('stop_hook_active');
  });

  it('X2: input keys named like Object.prototype members or __proto__ stay plain fields', () => {
    const input = JSON.parse('{"__proto__":{"polluted":true},"toString":"x"}') as Record<
      string,
      unknown
    >;
    const payload = buildPayload('Notification', input, ctx);
    expect(JSON.parse(JSON.stringify(payload))).toMatchObject({ toString: 'x' });
    expect(Object.hasOwn(payload, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.getPrototypeOf(payload)).toBe(Object.prototype);
  });
});
