import { describe, expect, it, beforeAll } from 'vitest';
import { parseHandlerOutput } from '../../src/engine/parse-output.js';
import { loadWireOutputReader } from '../../src/engine/wire-output-reader.js';
import { EVENT_NAMES } from '../../src/hooks/events.js';
import type { EventName } from '../../src/hooks/events.js';
import { exitRun, jsonRun, makeHandler, makeRun } from './helpers.js';

const codes = (out: { diagnostics: { code: string }[] }) => out.diagnostics.map((d) => d.code);

function parseJson(event: EventName, output: unknown) {
  return parseHandlerOutput(jsonRun(event, 0, output), event);
}

function parseStdout(event: EventName, stdout: string) {
  return parseHandlerOutput(makeRun(makeHandler(event), { stdout }), event);
}

// L1: a dispatch loads the JSON reader before it parses output; these tests parse directly.
beforeAll(loadWireOutputReader);

describe('K1: exit 0 stdout', () => {
  it.each(['', '   \n\t ', '\uFEFF', '\uFEFF \n'])(
    'K1: empty or whitespace-only stdout %j is no output and no diagnostic',
    (stdout) => {
      const out = parseStdout('PreToolUse', stdout);
      expect(out).toMatchObject({ continue: true, block: null, permission: null, context: [] });
      expect(out.diagnostics).toEqual([]);
    },
  );

  it('K1: surrounding whitespace and a leading byte-order mark are removed before parsing', () => {
    const out = parseStdout('PreToolUse', '\n \uFEFF{"systemMessage":"hi"}\n\n');
    expect(out.systemMessage).toBe('hi');
    expect(out.diagnostics).toEqual([]);
  });

  it.each(['[1,2]', '"text"', '42', 'null', '{"a":1} {"b":2}', '{"systemMessage":"x"', 'nope'])(
    'K1: %j is not one JSON object, so it is plain output (malformed_json on PreToolUse, no decision)',
    (stdout) => {
      const out = parseStdout('PreToolUse', stdout);
      expect(codes(out)).toEqual(['malformed_json']);
      expect(out.permission).toBeNull();
      expect(out.context).toEqual([]);
    },
  );

  it('K1: plain stdout on a context-policy event becomes trimmed context text', () => {
    const out = parseStdout('UserPromptSubmit', '  \uFEFFsprint ENG-1421\n');
    expect(out.context).toEqual(['sprint ENG-1421']);
    expect(out.diagnostics).toEqual([]);
  });

  const contextEvents: readonly EventName[] = ['SessionStart', 'UserPromptSubmit'];
  it.each(EVENT_NAMES.map((e) => [e, contextEvents.includes(e) ? 'context' : 'malformed_json']))(
    'section 1: plain stdout on %s follows the plain-stdout policy (%s)',
    (event, policy) => {
      const out = parseStdout(event as EventName, 'hello');
      if (policy === 'context') {
        expect(out.context).toEqual(['hello']);
        expect(out.diagnostics).toEqual([]);
      } else {
        expect(out.context).toEqual([]);
        expect(codes(out)).toEqual(['malformed_json']);
      }
    },
  );
});

describe('K2 and K3: exit codes', () => {
  it('K2: exit 2 ignores stdout and blocks with the trimmed stderr as reason', () => {
    const run = makeRun(makeHandler('PreToolUse'), {
      exitCode: 2,
      stdout: '{"continue":false,"systemMessage":"ignored"}',
      stderr: '\n  rm -rf blocked \n',
    });
    const out = parseHandlerOutput(run, 'PreToolUse');
    expect(out.block).toEqual({ reason: 'rm -rf blocked' });
    expect(out).toMatchObject({ continue: true, systemMessage: null });
    expect(out.diagnostics).toEqual([]);
  });

  it('K2: exit 2 with blank stderr blocks with "Hook blocked the operation"', () => {
    const out = parseHandlerOutput(exitRun('PreToolUse', 0, 2, ' \n'), 'PreToolUse');
    expect(out.block).toEqual({ reason: 'Hook blocked the operation', generic: true });
  });

  it('K3: exit 127 gives nonzero_exit with the code and the stderr tail, and never blocks', () => {
    const run = makeRun(makeHandler('PreToolUse'), {
      exitCode: 127,
      stdout: '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}',
      stderr: 'sh: guard: command not found\n',
    });
    const out = parseHandlerOutput(run, 'PreToolUse');
    expect(codes(out)).toEqual(['nonzero_exit']);
    expect(out.diagnostics[0]?.message).toContain('127');
    expect(out.diagnostics[0]?.message).toContain('sh: guard: command not found');
    expect(out).toMatchObject({ block: null, permission: null, continue: true });
  });

  it('K3: the nonzero_exit message quotes only the last 500 characters of stderr', () => {
    const stderr = `${'a'.repeat(2000)}THE-END`;
    const out = parseHandlerOutput(exitRun('Stop', 0, 1, stderr), 'Stop');
    const message = out.diagnostics[0]?.message ?? '';
    expect(message).toContain('THE-END');
    expect(message.length).toBeLessThan(600);
  });

  it('K3: a handler killed by a signal gives nonzero_exit naming the signal and no output', () => {
    const run = makeRun(makeHandler('Stop'), { exitCode: null, signal: 'SIGKILL', stdout: '{}' });
    const out = parseHandlerOutput(run, 'Stop');
    expect(codes(out)).toEqual(['nonzero_exit']);
    expect(out.diagnostics[0]?.message).toContain('SIGKILL');
  });
});

describe('X6-X8 and C4: run facts', () => {
  it('X6: a timed-out handler gives `timeout` and none of its output is applied', () => {
    const run = makeRun(makeHandler('UserPromptSubmit', 0, { timeoutSec: 30 }), {
      exitCode: null,
      timedOut: true,
      stdout: '{"continue":false,"stopReason":"late"}',
    });
    const out = parseHandlerOutput(run, 'UserPromptSubmit');
    expect(codes(out)).toEqual(['timeout']);
    expect(out.diagnostics[0]?.message).toContain('30s');
    expect(out).toMatchObject({ continue: true, stopReason: null, block: null });
  });

  it.each(['launch_failed', 'invalid_command'] as const)(
    'X8: a %s run adds only its diagnostic and never blocks',
    (kind) => {
      const run = makeRun(makeHandler('PreToolUse'), {
        exitCode: null,
        failure: { kind, message: `${kind} happened` },
      });
      const out = parseHandlerOutput(run, 'PreToolUse');
      expect(out.diagnostics).toMatchObject([{ code: kind, message: `${kind} happened` }]);
      expect(out).toMatchObject({ block: null, permission: null });
    },
  );

  const blocking = (event: EventName) =>
    makeHandler(event, 0, { plugin: 'guard@examples', onFailure: 'block', timeoutSec: 10 });

  it.each([
    [
      'exit 1',
      { exitCode: 1, stderr: 'Traceback: boom' },
      'nonzero_exit: exit code 1: Traceback: boom',
    ],
    [
      'a signal',
      { exitCode: null, signal: 'SIGSEGV' },
      'nonzero_exit: terminated by signal SIGSEGV',
    ],
    [
      'a timeout',
      { exitCode: null, timedOut: true },
      'timeout: timed out after 10s; no output applied',
    ],
    [
      'a launch failure',
      {
        exitCode: null,
        failure: { kind: 'launch_failed' as const, message: 'x: program not found' },
      },
      'launch_failed: x: program not found',
    ],
  ])(
    'X9: with onFailure "block", %s is a block naming hookpm, the handler and its plugin',
    (_, over, why) => {
      const out = parseHandlerOutput(makeRun(blocking('PreToolUse'), over), 'PreToolUse');
      expect(out.block?.reason).toBe(
        `hookpm: handler PreToolUse:0:0 of plugin guard@examples failed (${why}) and declares onFailure "block"`,
      );
      expect(out.diagnostics).toHaveLength(1);
    },
  );

  it('X9: with onFailure "block", exit 0 and exit 2 read as always, and without it a failure never blocks', () => {
    const ok = parseHandlerOutput(makeRun(blocking('PreToolUse'), { stdout: '' }), 'PreToolUse');
    expect(ok).toMatchObject({ block: null, diagnostics: [] });
    const two = parseHandlerOutput(
      makeRun(blocking('PreToolUse'), { exitCode: 2, stderr: 'no' }),
      'PreToolUse',
    );
    expect(two.block).toEqual({ reason: 'no' });
    const plain = parseHandlerOutput(
      makeRun(makeHandler('PreToolUse'), { exitCode: 1 }),
      'PreToolUse',
    );
    expect(plain).toMatchObject({ block: null, permission: null });
    expect(codes(plain)).toEqual(['nonzero_exit']);
  });

  it('X7: truncated stdout and stderr each give their diagnostic', () => {
    const run = makeRun(makeHandler('SessionStart'), {
      stdout: 'partial',
      stdoutTruncated: true,
      stderrTruncated: true,
    });
    const out = parseHandlerOutput(run, 'SessionStart');
    expect(codes(out)).toEqual(['stdout_truncated', 'stderr_truncated']);
  });

  it('C4: a legacy handler has its output and exit code ignored', () => {
    const legacy = makeHandler('UserPromptSubmit', 0, { legacyStdin: { event: 'user.prompt' } });
    for (const over of [{ exitCode: 2, stderr: 'no' }, { exitCode: 1 }, { stdout: 'ctx' }]) {
      const out = parseHandlerOutput(makeRun(legacy, over), 'UserPromptSubmit');
      expect(out).toMatchObject({ block: null, context: [], diagnostics: [] });
    }
    const late = makeRun(legacy, { exitCode: null, timedOut: true });
    expect(codes(parseHandlerOutput(late, 'UserPromptSubmit'))).toEqual(['timeout']);
  });

  it('cli.md 3: every diagnostic names the handler, its origin and its plugin', () => {
    const handler = makeHandler('PreToolUse', 3, { plugin: 'guard@examples' });
    const run = makeRun(handler, { stdout: 'oops', stdoutTruncated: true });
    const out = parseHandlerOutput(run, 'PreToolUse');
    for (const d of out.diagnostics) {
      expect(d).toMatchObject({
        handler: 'PreToolUse:3:0',
        origin: 'plugin',
        plugin: 'guard@examples',
      });
    }
    const user = parseHandlerOutput(exitRun('Stop', 1, 9), 'Stop').diagnostics[0];
    expect(user).toMatchObject({ handler: 'Stop:1:0', origin: 'user' });
    expect(user).not.toHaveProperty('plugin');
  });
});

describe('L1: top-level fields', () => {
  it('L1: absent fields take their defaults', () => {
    const out = parseJson('Stop', {});
    expect(out).toMatchObject({
      continue: true,
      stopReason: null,
      suppressOutput: false,
      systemMessage: null,
      block: null,
    });
  });

  it('L1: all fields of a valid output are read', () => {
    const out = parseJson('UserPromptSubmit', {
      continue: false,
      stopReason: 'stop',
      suppressOutput: true,
      systemMessage: 'note',
      decision: 'block',
      reason: 'because',
    });
    expect(out).toMatchObject({
      continue: false,
      stopReason: 'stop',
      suppressOutput: true,
      systemMessage: 'note',
      block: { reason: 'because' },
    });
  });

  it.each([
    { continue: 'yes', systemMessage: 'dropped' },
    { continue: 0, systemMessage: 'dropped' },
    { decision: 'allow', systemMessage: 'dropped' },
    { decision: 'block', reason: 7, systemMessage: 'dropped' },
    { continue: 'false', stopReason: null },
    { suppressOutput: 'true', systemMessage: 'dropped' },
    { systemMessage: ['dropped'] },
    { hookSpecificOutput: 'PreToolUse', systemMessage: 'dropped' },
  ])('L1: %j has a wrong type, so the whole output is dropped with invalid_output', (output) => {
    const out = parseJson('PreToolUse', output);
    expect(codes(out)).toEqual(['invalid_output']);
    expect(out).toMatchObject({ continue: true, systemMessage: null, block: null });
  });

  it('L1: each unknown top-level key gives one unsupported_field and the rest applies', () => {
    const out = parseJson('Stop', { systemMessage: 'kept', verdict: 1, extra: {} });
    expect(codes(out)).toEqual(['unsupported_field', 'unsupported_field']);
    expect(out.diagnostics[0]?.message).toContain('verdict');
    expect(out.diagnostics[1]?.message).toContain('extra');
    expect(out.systemMessage).toBe('kept');
  });

  it('L1: decision "block" without a reason (or with an empty one) gets the reference\'s "Blocked by hook"', () => {
    const generic = { reason: 'Blocked by hook', generic: true };
    expect(parseJson('Stop', { decision: 'block' }).block).toEqual(generic);
    expect(parseJson('Stop', { decision: 'block', reason: '' }).block).toEqual(generic);
    expect(parseJson('Stop', { decision: 'block', reason: null }).block).toEqual(generic);
    expect(parseJson('Stop', { decision: 'block', reason: 'why' }).block).toEqual({
      reason: 'why',
    });
  });

  it('L1: {"continue": false, "stopReason": null} stops: a field given as null counts as absent', () => {
    const out = parseJson('UserPromptSubmit', { continue: false, stopReason: null });
    expect(out).toMatchObject({ continue: false, stopReason: null });
    expect(out.diagnostics).toEqual([]);
  });

  it.each([
    ['continue', { systemMessage: 'kept' }],
    ['stopReason', { continue: false }],
    ['suppressOutput', { systemMessage: 'kept' }],
    ['systemMessage', { continue: false }],
    ['decision', { systemMessage: 'kept' }],
    ['reason', { decision: 'block' }],
    ['hookSpecificOutput', { systemMessage: 'kept' }],
  ])('L1: %s given as null counts as absent and the rest of the output applies', (field, rest) => {
    const withNull = parseJson('UserPromptSubmit', { ...rest, [field]: null });
    expect(withNull).toEqual(parseJson('UserPromptSubmit', rest));
    expect(withNull.diagnostics).toEqual([]);
  });

  it('L1: null fields inside hookSpecificOutput and a PermissionRequest decision count as absent too', () => {
    const pre = parseJson('PreToolUse', {
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: null,
        additionalContext: null,
        updatedInput: null,
      },
    });
    expect(pre.permission).toEqual({ decision: 'deny', reason: null, interrupt: false });
    expect(pre.diagnostics).toEqual([]);
    const request = parseJson('PermissionRequest', {
      hookSpecificOutput: {
        hookEventName: 'PermissionRequest',
        decision: { behavior: 'deny', message: null, interrupt: null, updatedInput: null },
      },
    });
    expect(request.permission).toEqual({ decision: 'deny', reason: null, interrupt: false });
    expect(request.diagnostics).toEqual([]);
  });

  it('L1: a null hookEventName is a missing one (mismatched_output), not a coerced event name', () => {
    const out = parseJson('PreToolUse', {
      hookSpecificOutput: { hookEventName: null, permissionDecision: 'deny' },
    });
    expect(codes(out)).toEqual(['mismatched_output']);
    expect(out.permission).toBeNull();
  });

  it('L1: on PreToolUse, decision "approve" (the deprecated alias) is permissionDecision "allow" with the reason', () => {
    const out = parseJson('PreToolUse', { decision: 'approve', reason: 'read-only command' });
    expect(out.permission).toEqual({
      decision: 'allow',
      reason: 'read-only command',
      interrupt: false,
    });
    expect(out).toMatchObject({ block: null, diagnostics: [] });
    expect(parseJson('PreToolUse', { decision: 'approve' }).permission).toEqual({
      decision: 'allow',
      reason: null,
      interrupt: false,
    });
  });

  it('L1: a permissionDecision of its own wins over decision "approve" in the same output', () => {
    const out = parseJson('PreToolUse', {
      decision: 'approve',
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny' },
    });
    expect(out.permission).toEqual({ decision: 'deny', reason: null, interrupt: false });
  });

  it('L1/L3: decision "approve" with updatedInput is an allow, so it is dropped like one', () => {
    const out = parseJson('PreToolUse', {
      decision: 'approve',
      hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: { command: 'ls' } },
    });
    expect(out.permission).toBeNull();
    expect(codes(out)).toEqual(['unsupported_field']);
  });

  it.each(['PermissionRequest', 'Stop', 'UserPromptSubmit', 'PostToolUse'] as const)(
    'L1: decision "approve" on %s is not "block", so the whole output is dropped (invalid_output)',
    (event) => {
      const out = parseJson(event, { decision: 'approve', systemMessage: 'dropped' });
      expect(codes(out)).toEqual(['invalid_output']);
      expect(out).toMatchObject({ systemMessage: null, permission: null, block: null });
    },
  );

  it.each([
    '{"async":true}',
    '{"async": true, "asyncTimeout": 15000}\n{"decision":"block","reason":"late"}',
    '\uFEFF{"async":true}\nplain text',
  ])(
    'L1: a first stdout line {"async": true} makes the rest of the output ignored, with an info diagnostic (%j)',
    (stdout) => {
      const out = parseStdout('PreToolUse', stdout);
      expect(out.diagnostics).toMatchObject([{ code: 'unsupported_field', severity: 'info' }]);
      expect(out).toMatchObject({ block: null, permission: null, context: [], continue: true });
      for (const event of ['UserPromptSubmit', 'SessionStart'] as const)
        expect(parseStdout(event, stdout).context, event).toEqual([]);
    },
  );

  it.each(['{"async":false}', '{"async":"true","systemMessage":"x"}', '{"note":"async"}'])(
    'L1: %j is not the async protocol: the output is read as usual',
    (stdout) => {
      const out = parseStdout('Stop', stdout);
      expect(out.diagnostics.map((d) => d.severity)).not.toContain('info');
    },
  );
});

describe('L2: hookSpecificOutput', () => {
  it('L2: a hookEventName other than the event gives mismatched_output and ignores only the specific part', () => {
    const out = parseJson('SessionStart', {
      systemMessage: 'kept',
      hookSpecificOutput: { hookEventName: 'SubagentStart', additionalContext: 'dropped' },
    });
    expect(codes(out)).toEqual(['mismatched_output']);
    expect(out.context).toEqual([]);
    expect(out.systemMessage).toBe('kept');
  });

  it('L2: a missing hookEventName is a mismatch too', () => {
    const out = parseJson('SessionStart', { hookSpecificOutput: { additionalContext: 'x' } });
    expect(codes(out)).toEqual(['mismatched_output']);
    expect(out.context).toEqual([]);
  });

  it.each(['SessionEnd', 'Notification', 'PreCompact'] as const)(
    'L2: %s has no specific output, so one given drops the whole output (invalid_output)',
    (event) => {
      const out = parseJson(event, {
        systemMessage: 'dropped',
        hookSpecificOutput: { hookEventName: event },
      });
      expect(codes(out)).toEqual(['invalid_output']);
      expect(out.systemMessage).toBeNull();
    },
  );

  it.each([
    'SessionStart',
    'PostToolUseFailure',
    'Stop',
    'SubagentStart',
    'SubagentStop',
    'UserPromptSubmit',
    'PreToolUse',
    'PostToolUse',
  ] as const)('L2: %s recognises additionalContext', (event) => {
    const out = parseJson(event, {
      hookSpecificOutput: { hookEventName: event, additionalContext: 'ctx', somethingElse: 1 },
    });
    expect(out.context).toEqual(['ctx']);
    expect(out.diagnostics).toEqual([]);
  });

  it('L2: keys an event does not recognise are ignored, even when another event knows them', () => {
    const out = parseJson('SessionStart', {
      hookSpecificOutput: {
        hookEventName: 'SessionStart',
        suppressOriginalPrompt: true,
        permissionDecision: 'deny',
      },
    });
    expect(out).toMatchObject({ suppressOriginalPrompt: false, permission: null, diagnostics: [] });
    const onPermission = parseJson('PermissionRequest', {
      hookSpecificOutput: { hookEventName: 'PermissionRequest', additionalContext: 'no' },
    });
    expect(onPermission.context).toEqual([]);
  });

  it('L2: UserPromptSubmit reads suppressOriginalPrompt', () => {
    const out = parseJson('UserPromptSubmit', {
      hookSpecificOutput: { hookEventName: 'UserPromptSubmit', suppressOriginalPrompt: true },
    });
    expect(out.suppressOriginalPrompt).toBe(true);
  });

  it.each(['allow', 'ask', 'deny'] as const)(
    'L2: PreToolUse permissionDecision %s is read with its reason',
    (decision) => {
      const out = parseJson('PreToolUse', {
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: decision,
          permissionDecisionReason: 'why',
        },
      });
      expect(out.permission).toEqual({ decision, reason: 'why', interrupt: false });
    },
  );

  it('L2: PermissionRequest decision carries message and interrupt on deny', () => {
    const out = parseJson('PermissionRequest', {
      hookSpecificOutput: {
        hookEventName: 'PermissionRequest',
        decision: { behavior: 'deny', message: 'Not allowed', interrupt: true },
      },
    });
    expect(out.permission).toEqual({ decision: 'deny', reason: 'Not allowed', interrupt: true });
  });

  it.each([
    ['PermissionRequest', { decision: { behavior: 'ask' } }],
    ['PermissionRequest', { decision: { behavior: 'deny', interrupt: 'yes' } }],
    ['PreToolUse', { permissionDecision: 'maybe' }],
    ['SessionStart', { additionalContext: 5 }],
    ['UserPromptSubmit', { suppressOriginalPrompt: 'true' }],
  ] as const)(
    'L2: on %s a recognised key with a wrong value %j drops the output (invalid_output)',
    (event, specific) => {
      const out = parseJson(event, {
        systemMessage: 'dropped',
        hookSpecificOutput: { hookEventName: event, ...specific },
      });
      expect(codes(out)).toEqual(['invalid_output']);
      expect(out).toMatchObject({ systemMessage: null, permission: null, context: [] });
    },
  );
});

describe('L3: parsed but not applied', () => {
  const pre = (specific: Record<string, unknown>) =>
    parseJson('PreToolUse', { hookSpecificOutput: { hookEventName: 'PreToolUse', ...specific } });

  it('L3: permissionDecision "defer" gives unsupported_field and no decision', () => {
    const out = pre({ permissionDecision: 'defer', permissionDecisionReason: 'later' });
    expect(codes(out)).toEqual(['unsupported_field']);
    expect(out.permission).toBeNull();
  });

  it.each(['allow', 'ask'] as const)(
    'L3: updatedInput drops an %s in the same output',
    (decision) => {
      const out = pre({ permissionDecision: decision, updatedInput: { command: 'ls' } });
      expect(codes(out)).toEqual(['unsupported_field']);
      expect(out.permission).toBeNull();
    },
  );

  it('L3: updatedInput keeps a deny in the same output', () => {
    const out = pre({
      permissionDecision: 'deny',
      permissionDecisionReason: 'no',
      updatedInput: {},
    });
    expect(codes(out)).toEqual(['unsupported_field']);
    expect(out.permission).toEqual({ decision: 'deny', reason: 'no', interrupt: false });
  });

  it('L3: PermissionRequest updatedInput drops an allow; updatedPermissions is reported but keeps it', () => {
    const request = (decision: Record<string, unknown>) =>
      parseJson('PermissionRequest', {
        hookSpecificOutput: { hookEventName: 'PermissionRequest', decision },
      });
    const withInput = request({ behavior: 'allow', updatedInput: { command: 'ls' } });
    expect(codes(withInput)).toEqual(['unsupported_field']);
    expect(withInput.permission).toBeNull();
    const withRules = request({ behavior: 'allow', updatedPermissions: [{ type: 'addRules' }] });
    expect(codes(withRules)).toEqual(['unsupported_field']);
    expect(withRules.permission).toEqual({ decision: 'allow', reason: null, interrupt: false });
  });

  it('L3: PostToolUse updatedToolOutput gives unsupported_field and the rest applies', () => {
    const out = parseJson('PostToolUse', {
      hookSpecificOutput: {
        hookEventName: 'PostToolUse',
        updatedToolOutput: 'replaced',
        additionalContext: 'ctx',
      },
    });
    expect(codes(out)).toEqual(['unsupported_field']);
    expect(out.context).toEqual(['ctx']);
  });
});

describe('K1 graded by what the user can do', () => {
  it.each([
    ['done', 'info'],
    ['all checks passed\nbye', 'info'],
    ['{"continue":', 'warning'],
    ['[1,2]', 'warning'],
  ] as const)('K1: plain stdout %j on Stop is malformed_json at %s', (stdout, severity) => {
    const out = parseStdout('Stop', stdout);
    expect(out.diagnostics.map((d) => [d.code, d.severity])).toEqual([
      ['malformed_json', severity],
    ]);
  });
});
