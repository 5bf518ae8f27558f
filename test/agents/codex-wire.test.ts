import { describe, expect, it } from 'vitest';
import { CODEX } from '../../src/agents/codex.js';
import { CODEX_CANNOT_ASK, CODEX_NO_REASON } from '../../src/agents/codex-decision.js';
import { GENERIC_BLOCK_REASON } from '../../src/engine/generic-block-reason.js';
import type { DispatchResult } from '../../src/engine/types.js';
import { expectPreToolUseDecision, permissionRequest, result } from '../helpers/wire-output.js';

// `hookpm wire codex`: the wire adapter's two halves. The payloads are those Codex 0.171.0 sent
// a linked hook in test/agents/codex-link.test.ts's turns (test/agents/codex.ts lists their keys);
// for events such a turn does not fire, the fields its input schema requires
// (`codex-rs/hooks/schema/generated/<event>.command.input.schema.json` of github:openai/codex,
// compiled into the binary). The outputs must fit Codex's output schemas (`*.command.output.*`),
// each `additionalProperties: false`: ALLOWED below is copied from them.

const BASE = {
  session_id: '01a23567-9c21-71d1-b06f-3205d6bbe72a',
  transcript_path: '/home/u/.codex/sessions/2026/12/02/rollout-2026-12-02T06-18-32.jsonl',
  cwd: '/home/u/repo',
  model: 'gpt-5',
  permission_mode: 'bypassPermissions',
};
const TURN = { ...BASE, turn_id: '01a23567-9c79-7aa1-8500-b352253ecf5c' };
const TOOL = { tool_name: 'Bash', tool_input: { command: 'echo probe-ok' }, tool_use_id: 'call_1' };

const PAYLOADS: Record<string, Record<string, unknown>> = {
  SessionStart: { ...BASE, hook_event_name: 'SessionStart', source: 'startup' },
  UserPromptSubmit: { ...TURN, hook_event_name: 'UserPromptSubmit', prompt: 'Run it' },
  SessionEnd: { ...BASE, hook_event_name: 'SessionEnd', reason: 'other' },
  PermissionRequest: { ...TURN, hook_event_name: 'PermissionRequest', ...TOOL },
  PreToolUse: { ...TURN, hook_event_name: 'PreToolUse', ...TOOL },
  PostToolUse: { ...TURN, hook_event_name: 'PostToolUse', ...TOOL, tool_response: 'probe-ok\n' },
  PreCompact: { ...TURN, hook_event_name: 'PreCompact', trigger: 'auto' },
  Stop: {
    ...TURN,
    hook_event_name: 'Stop',
    stop_hook_active: false,
    last_assistant_message: 'done',
  },
  SubagentStart: {
    ...TURN,
    hook_event_name: 'SubagentStart',
    agent_id: 'a1',
    agent_type: 'explorer',
  },
  SubagentStop: {
    ...TURN,
    hook_event_name: 'SubagentStop',
    agent_id: 'a1',
    agent_type: 'explorer',
    agent_transcript_path: null,
    last_assistant_message: 'found it',
    stop_hook_active: false,
  },
};

const COMMON = ['continue', 'stopReason', 'suppressOutput', 'systemMessage'];
const BLOCK = [...COMMON, 'decision', 'reason'];
const ALLOWED: Record<string, { top: string[]; specific: string[] }> = {
  SessionStart: { top: [...COMMON, 'hookSpecificOutput'], specific: ['additionalContext'] },
  UserPromptSubmit: { top: [...BLOCK, 'hookSpecificOutput'], specific: ['additionalContext'] },
  PermissionRequest: { top: [...COMMON, 'hookSpecificOutput'], specific: ['decision'] },
  PreToolUse: {
    top: [...BLOCK, 'hookSpecificOutput'],
    specific: ['additionalContext', 'permissionDecision', 'permissionDecisionReason'],
  },
  PostToolUse: { top: [...BLOCK, 'hookSpecificOutput'], specific: ['additionalContext'] },
  PreCompact: { top: COMMON, specific: [] },
  Stop: { top: BLOCK, specific: [] },
  SubagentStart: { top: [...COMMON, 'hookSpecificOutput'], specific: ['additionalContext'] },
  SubagentStop: { top: BLOCK, specific: [] },
};

/** The answer's stdout, checked against Codex's schema keys of the event. */
function out(r: DispatchResult): Record<string, any> | null {
  const answer = CODEX.encode(r);
  expect(answer.exitCode).toBe(0);
  if (answer.stdout === '') return null;
  const value = JSON.parse(answer.stdout) as Record<string, any>;
  const allowed = ALLOWED[r.event]!;
  for (const key of Object.keys(value)) expect(allowed.top).toContain(key);
  const specific = (value['hookSpecificOutput'] ?? {}) as Record<string, unknown>;
  for (const key of Object.keys(specific))
    expect(['hookEventName', ...allowed.specific]).toContain(key);
  return value;
}

describe('the Codex wire input', () => {
  it.each(Object.keys(PAYLOADS))(
    '%s is the engine event of the same name, fields as sent',
    (name) => {
      const decoded = CODEX.decode(PAYLOADS[name]!);
      expect(decoded?.event).toBe(name);
      expect(decoded?.input).toEqual(PAYLOADS[name]);
    },
  );

  it('the linked events are exactly those of the table; PostCompact and Interrupt are not linked', () => {
    expect([...CODEX.settingsEvents].sort()).toEqual(Object.keys(PAYLOADS).sort());
    expect(CODEX.eventsNotLinked).toEqual(['PostCompact', 'Interrupt']);
    for (const name of CODEX.eventsNotLinked)
      expect(CODEX.decode({ ...TURN, hook_event_name: name, trigger: 'auto' })).toBeNull();
  });

  it('cli.md W4: apply_patch keeps its name and input, with Write and Edit as matcher aliases (Codex matches it so)', () => {
    const patch = { command: '*** Begin Patch\n*** Add File: a.txt\n+hi\n*** End Patch\n' };
    const payload = {
      ...TURN,
      hook_event_name: 'PreToolUse',
      tool_name: 'apply_patch',
      tool_input: patch,
      tool_use_id: 'call_3',
    };
    expect(CODEX.decode(payload)).toEqual({
      event: 'PreToolUse',
      input: payload,
      matcherAliases: ['Write', 'Edit'],
    });
    expect(CODEX.decode(PAYLOADS['PreToolUse']!)?.matcherAliases).toBeUndefined();
  });

  it('a payload naming the model-facing tool, `exec_command` with `cmd`, is Bash with `command`', () => {
    const decoded = CODEX.decode({
      ...TURN,
      hook_event_name: 'PreToolUse',
      tool_name: 'exec_command',
      tool_input: { cmd: 'ls', workdir: '/tmp' },
      tool_use_id: 'call_2',
    });
    expect(decoded?.input).toMatchObject({
      tool_name: 'Bash',
      tool_input: { command: 'ls', workdir: '/tmp' },
    });
  });
});

describe('the Codex wire output (deny, allow, context, stop)', () => {
  it('nothing decided: no output, exit 0, for every linked event', () => {
    for (const event of CODEX.events) expect(out(result(event))).toBeNull();
  });

  it('PreToolUse deny: permissionDecision with its reason (Codex: "Command blocked by PreToolUse hook: <reason>")', () =>
    expectPreToolUseDecision(out, 'deny'));

  it('cli.md W3: a PreToolUse allow is left out and its context kept (Codex refuses an allow without updatedInput, and with it the whole output)', () => {
    const permission = { decision: 'allow' as const, reason: 'fine', interrupt: false };
    expect(out(result('PreToolUse', { permission }))).toBeNull();
    expect(out(result('PreToolUse', { permission, context: ['ctx'] }))).toEqual({
      hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: 'ctx' },
    });
  });

  it('cli.md W3: a PreToolUse ask is a deny that says Codex cannot ask (Codex refuses an ask and runs the tool)', () => {
    for (const [reason, said] of [
      ['confirm the push', 'confirm the push'],
      [null, 'a hookpm plugin asks you to confirm this'],
    ] as const)
      expect(
        out(result('PreToolUse', { permission: { decision: 'ask', reason, interrupt: false } })),
      ).toEqual({
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'deny',
          permissionDecisionReason: `${said}; ${CODEX_CANNOT_ASK}`,
        },
      });
  });

  it('cli.md W3: a PreToolUse deny always has a reason, since Codex runs the tool on a deny without one', () => {
    for (const reason of [null, '', '  '])
      expect(
        out(result('PreToolUse', { permission: { decision: 'deny', reason, interrupt: false } })),
      ).toEqual({
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'deny',
          permissionDecisionReason: CODEX_NO_REASON,
        },
      });
  });

  it('cli.md W3: a PreToolUse stop is a deny with the stop reason (Codex refuses continue:false there and runs the tool)', () => {
    const deny = { decision: 'deny' as const, reason: 'no force push', interrupt: false };
    const stopped = (fields: Partial<DispatchResult>) =>
      out(result('PreToolUse', { continue: false, stopReason: 'halt', ...fields }));
    const denial = (reason: string) => ({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: reason,
      },
    });
    expect(stopped({ permission: deny })).toEqual(denial('no force push'));
    expect(stopped({})).toEqual(denial('halt'));
    expect(stopped({ stopReason: null })).toEqual(denial(CODEX_NO_REASON));
  });

  it('PermissionRequest deny and allow: hookSpecificOutput.decision.behavior', () => {
    expect(out(permissionRequest('allow', null, false))?.hookSpecificOutput.decision).toEqual({
      behavior: 'allow',
    });
  });

  it('cli.md W3: a PermissionRequest deny has no interrupt, and a stop is a deny with the stop reason (Codex refuses both and asks its user instead)', () => {
    const denial = (message: string) => ({
      hookSpecificOutput: {
        hookEventName: 'PermissionRequest',
        decision: { behavior: 'deny', message },
      },
    });
    expect(out(permissionRequest('deny', 'no', true))).toEqual(denial('no'));
    expect(
      out({ ...permissionRequest('allow', null, false), continue: false, stopReason: 'halt' }),
    ).toEqual(denial('halt'));
    expect(out({ ...permissionRequest('deny', 'no', true), continue: false })).toEqual(
      denial('no'),
    );
  });

  it.each([
    'SessionStart',
    'UserPromptSubmit',
    'PreToolUse',
    'PostToolUse',
    'SubagentStart',
  ] as const)('%s context: hookSpecificOutput.additionalContext', (event) => {
    expect(out(result(event, { context: ['one', 'two'] }))?.hookSpecificOutput).toEqual({
      hookEventName: event,
      additionalContext: 'one\ntwo',
    });
  });

  it('SubagentStop context: decision block with the text (Codex has no additionalContext there)', () => {
    expect(out(result('SubagentStop', { context: ['check the tests'] }))).toEqual({
      decision: 'block',
      reason: 'check the tests',
    });
  });

  it('PostToolUse feedback: decision block with the reason', () => {
    expect(out(result('PostToolUse', { feedback: ['lint failed'] }))).toEqual({
      decision: 'block',
      reason: 'lint failed',
    });
  });

  it('O1: a Stop continuation is decision block with the feedback; continue:false stops with its reason', () => {
    expect(out(result('Stop', { continueLoop: true, feedback: ['run the tests'] }))).toEqual({
      decision: 'block',
      reason: 'run the tests',
    });
    expect(out(result('Stop', { continue: false, stopReason: 'enough' }))).toEqual({
      continue: false,
      stopReason: 'enough',
    });
  });

  it('W3: a block whose reason is blank gets the generic one, since Codex drops a block without text', () => {
    expect(out(result('Stop', { continueLoop: true, feedback: ['  '] }))).toEqual({
      decision: 'block',
      reason: GENERIC_BLOCK_REASON,
    });
    expect(out(result('PostToolUse', { feedback: ['\n'] }))).toEqual({
      decision: 'block',
      reason: GENERIC_BLOCK_REASON,
    });
    expect(out(result('SubagentStop', { context: [' '] }))).toEqual({
      decision: 'block',
      reason: GENERIC_BLOCK_REASON,
    });
  });

  it('a UserPromptSubmit or PreCompact block stops with the reason; UserPromptSubmit never gets suppressOriginalPrompt', () => {
    expect(
      out(
        result('UserPromptSubmit', {
          continue: false,
          stopReason: 'no secrets',
          suppressOriginalPrompt: true,
        }),
      ),
    ).toEqual({ continue: false, stopReason: 'no secrets' });
    expect(out(result('PreCompact', { continue: false, stopReason: 'not now' }))).toEqual({
      continue: false,
      stopReason: 'not now',
    });
  });

  it('SessionEnd: Codex reads nothing back (no output schema), so nothing is written; diagnostics still go to stderr', () => {
    const answer = CODEX.encode(
      result('SessionEnd', {
        systemMessages: ['bye'],
        diagnostics: [{ code: 'nonzero_exit', severity: 'warning', message: 'exit 3' }],
      }),
    );
    expect(answer).toEqual({
      exitCode: 0,
      stdout: '',
      stderr: 'hookpm: warning nonzero_exit: exit 3\n',
    });
  });

  it('systemMessage on every event that has one', () => {
    for (const event of CODEX.events.filter((e) => e !== 'SessionEnd'))
      expect(out(result(event, { systemMessages: ['hi'] }))).toEqual({ systemMessage: 'hi' });
  });
});
