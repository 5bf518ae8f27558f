import { describe, expect, it, beforeAll } from 'vitest';
import { reduceResults } from '../../src/engine/reduce.js';
import { loadWireOutputReader } from '../../src/engine/wire-output-reader.js';
import type { HandlerRun } from '../../src/engine/types.js';
import type { EventName } from '../../src/hooks/events.js';
import { exitRun, jsonRun, makeHandler, makeRun } from './helpers.js';
import { neutralResult } from '../helpers/neutral-result.js';

const SNAPSHOT = 'a'.repeat(64);

function reduce(
  event: EventName,
  runs: HandlerRun[],
  continuationCount = 0,
  stopHookActive?: boolean,
) {
  const opts = { snapshotId: SNAPSHOT, continuationCount };
  return reduceResults(
    event,
    runs,
    stopHookActive === undefined ? opts : { ...opts, stopHookActive },
  );
}

const codes = (r: { diagnostics: { code: string }[] }) => r.diagnostics.map((d) => d.code);

function specific(event: EventName, fields: Record<string, unknown>) {
  return { hookSpecificOutput: { hookEventName: event, ...fields } };
}

// L1: a dispatch loads the JSON reader before it parses output; these tests parse directly.
beforeAll(loadWireOutputReader);

describe('M1-M3: continue, stopReason, systemMessage', () => {
  it('M1: one continue:false makes the result continue:false and keeps the other fields', () => {
    const r = reduce('PostToolUse', [
      jsonRun('PostToolUse', 0, { systemMessage: 'first' }),
      jsonRun('PostToolUse', 1, { continue: false, systemMessage: 'second' }),
      jsonRun('PostToolUse', 2, specific('PostToolUse', { additionalContext: 'third' })),
    ]);
    expect(r.continue).toBe(false);
    expect(r.systemMessages).toEqual(['first', 'second']);
    expect(r.context).toEqual(['third']);
    expect(r.runs.map((run) => run.handler)).toEqual([
      'PostToolUse:0:0',
      'PostToolUse:1:0',
      'PostToolUse:2:0',
    ]);
  });

  it('M2/X1: when the first configured handler finishes last, its stopReason still wins', () => {
    const first = jsonRun('PreCompact', 0, { continue: false, stopReason: 'first' });
    const second = jsonRun('PreCompact', 1, { continue: false, stopReason: 'second' });
    const r = reduce('PreCompact', [
      { ...first, durationMs: 900 },
      { ...second, durationMs: 3 },
    ]);
    expect(r.stopReason).toBe('first');
    expect(r.diagnostics).toMatchObject([
      { code: 'additional_stop_reason', handler: 'PreCompact:1:0' },
    ]);
    expect(r.runs.map((run) => run.durationMs)).toEqual([900, 3]);
  });

  it('M2: a stopReason with continue:true is ignored with ignored_stop_reason', () => {
    const r = reduce('Stop', [jsonRun('Stop', 0, { stopReason: 'not stopping' })]);
    expect(r.stopReason).toBeNull();
    expect(codes(r)).toEqual(['ignored_stop_reason']);
  });

  it('M2: a continue:false without stopReason leaves the place to a later stopReason', () => {
    const r = reduce('Stop', [
      jsonRun('Stop', 0, { continue: false }),
      jsonRun('Stop', 1, { continue: false, stopReason: 'later' }),
    ]);
    expect(r.stopReason).toBe('later');
    expect(r.diagnostics).toEqual([]);
  });

  it('M2: a BLOCK-policy block sets the stop reason only while it is empty', () => {
    const blockFirst = reduce('UserPromptSubmit', [
      exitRun('UserPromptSubmit', 0, 2, 'secret in prompt'),
      jsonRun('UserPromptSubmit', 1, { continue: false, stopReason: 'second' }),
    ]);
    expect(blockFirst.stopReason).toBe('secret in prompt');
    expect(codes(blockFirst)).toEqual(['additional_stop_reason']);
    const stopFirst = reduce('UserPromptSubmit', [
      jsonRun('UserPromptSubmit', 0, { continue: false, stopReason: 'first' }),
      exitRun('UserPromptSubmit', 1, 2, 'blocked'),
    ]);
    expect(stopFirst).toMatchObject({ continue: false, stopReason: 'first' });
  });

  it('M3: system messages are kept in order, except the one whose handler set suppressOutput', () => {
    const r = reduce('SessionStart', [
      jsonRun('SessionStart', 0, { systemMessage: 'one' }),
      jsonRun('SessionStart', 1, { systemMessage: 'hidden', suppressOutput: true }),
      jsonRun('SessionStart', 2, { systemMessage: 'three', suppressOutput: false }),
    ]);
    expect(r.systemMessages).toEqual(['one', 'three']);
  });
});

describe('M4-M6: context, permission, suppressOriginalPrompt', () => {
  it('M4: context follows configuration order, plain stdout and additionalContext alike', () => {
    const r = reduce('UserPromptSubmit', [
      makeRun(makeHandler('UserPromptSubmit', 0), { stdout: 'plain zero', durationMs: 50 }),
      jsonRun(
        'UserPromptSubmit',
        1,
        specific('UserPromptSubmit', { additionalContext: 'json one' }),
      ),
      makeRun(makeHandler('UserPromptSubmit', 2), { stdout: 'plain two', durationMs: 1 }),
    ]);
    expect(r.context).toEqual(['plain zero', 'json one', 'plain two']);
  });

  const decide = (i: number, decision: string, reason: string) =>
    jsonRun(
      'PreToolUse',
      i,
      specific('PreToolUse', { permissionDecision: decision, permissionDecisionReason: reason }),
    );

  it.each([
    [['allow', 'ask', 'deny'], 'deny', 'r2'],
    [['deny', 'ask', 'allow'], 'deny', 'r0'],
    [['allow', 'allow'], 'allow', 'r0'],
    [['ask', 'allow', 'ask'], 'ask', 'r0'],
    [['deny', 'deny'], 'deny', 'r0'],
  ])(
    'M5: decisions %j reduce to %s with reason %s (strictly higher replaces)',
    (list, decision, reason) => {
      const r = reduce(
        'PreToolUse',
        list.map((d, i) => decide(i, d, `r${i}`)),
      );
      expect(r.permission).toEqual({ decision, reason, interrupt: false });
    },
  );

  const decideWithout = (i: number, decision: string, reason: string | null) =>
    jsonRun(
      'PreToolUse',
      i,
      specific('PreToolUse', {
        permissionDecision: decision,
        ...(reason === null ? {} : { permissionDecisionReason: reason }),
      }),
    );

  it.each([
    [
      [
        ['deny', null],
        ['deny', 'second'],
      ],
      'deny',
      'second',
    ],
    [
      [
        ['deny', ''],
        ['deny', null],
        ['deny', 'third'],
        ['deny', 'fourth'],
      ],
      'deny',
      'third',
    ],
    [
      [
        ['allow', null],
        ['allow', 'why'],
      ],
      'allow',
      'why',
    ],
    [
      [
        ['ask', 'first'],
        ['ask', 'second'],
      ],
      'ask',
      'first',
    ],
    [
      [
        ['deny', null],
        ['allow', 'not this'],
      ],
      'deny',
      null,
    ],
    [
      [
        ['allow', 'lower'],
        ['deny', null],
      ],
      'deny',
      null,
    ],
  ] as const)(
    'M5: among equal decisions the first non-empty reason wins (%j gives %s with %s)',
    (list, decision, reason) => {
      const r = reduce(
        'PreToolUse',
        list.map(([d, why], i) => decideWithout(i, d, why)),
      );
      expect(r.permission).toEqual({ decision, reason, interrupt: false });
    },
  );

  it("M5: a reasonless PermissionRequest deny keeps its interrupt and takes the next deny's message", () => {
    const deny = (i: number, d: Record<string, unknown>) =>
      jsonRun('PermissionRequest', i, specific('PermissionRequest', { decision: d }));
    const r = reduce('PermissionRequest', [
      deny(0, { behavior: 'deny', interrupt: true }),
      deny(1, { behavior: 'deny', message: 'No' }),
    ]);
    expect(r.permission).toEqual({ decision: 'deny', reason: 'No', interrupt: true });
  });

  it('M5: a block without a reason gives its fallback text only when no equal deny gave a reason', () => {
    const jsonBlock = (i: number, reason?: string) =>
      jsonRun(
        'PreToolUse',
        i,
        reason === undefined ? { decision: 'block' } : { decision: 'block', reason },
      );
    expect(reduce('PreToolUse', [jsonBlock(0)]).permission).toEqual({
      decision: 'deny',
      reason: 'Blocked by hook',
      interrupt: false,
    });
    expect(reduce('PreToolUse', [jsonBlock(0), jsonBlock(1, 'not on main')]).permission).toEqual({
      decision: 'deny',
      reason: 'not on main',
      interrupt: false,
    });
    expect(
      reduce('PreToolUse', [exitRun('PreToolUse', 0, 2, ''), decideWithout(1, 'deny', 'policy')])
        .permission,
    ).toEqual({ decision: 'deny', reason: 'policy', interrupt: false });
    // The first fallback text stands when nobody gave a reason.
    expect(
      reduce('PreToolUse', [exitRun('PreToolUse', 0, 2, ''), jsonBlock(1)]).permission?.reason,
    ).toBe('Hook blocked the operation');
    // A reason from a lower-ranked decision is not taken over.
    expect(
      reduce('PreToolUse', [decideWithout(0, 'ask', 'check'), jsonBlock(1)]).permission,
    ).toEqual({ decision: 'deny', reason: 'Blocked by hook', interrupt: false });
  });

  it('M5/K2: an exit-2 deny gives its reason to an earlier reasonless deny', () => {
    const r = reduce('PreToolUse', [
      decideWithout(0, 'deny', null),
      exitRun('PreToolUse', 1, 2, 'rm -rf blocked'),
    ]);
    expect(r.permission).toEqual({ decision: 'deny', reason: 'rm -rf blocked', interrupt: false });
  });

  it('L1/M1: {"continue": false, "stopReason": null} stops the dispatch', () => {
    const r = reduce('UserPromptSubmit', [
      jsonRun('UserPromptSubmit', 0, { continue: false, stopReason: null }),
      jsonRun('UserPromptSubmit', 1, { systemMessage: 'still here' }),
    ]);
    expect(r).toMatchObject({ continue: false, stopReason: null, systemMessages: ['still here'] });
    expect(r.diagnostics).toEqual([]);
  });

  it('L1/M5: decision "approve" on PreToolUse is an allow that any ask or deny outranks', () => {
    const approve = jsonRun('PreToolUse', 0, { decision: 'approve', reason: 'fine' });
    expect(reduce('PreToolUse', [approve]).permission).toEqual({
      decision: 'allow',
      reason: 'fine',
      interrupt: false,
    });
    expect(reduce('PreToolUse', [approve, decide(1, 'deny', 'no')]).permission).toEqual({
      decision: 'deny',
      reason: 'no',
      interrupt: false,
    });
  });

  it('M5: permission is null when no handler decided', () => {
    const r = reduce('PreToolUse', [jsonRun('PreToolUse', 0, {}), exitRun('PreToolUse', 1, 1)]);
    expect(r.permission).toBeNull();
  });

  it('M5/K2: PreToolUse exit 2 denies with the stderr reason, over an earlier allow', () => {
    const r = reduce('PreToolUse', [
      decide(0, 'allow', 'fine'),
      exitRun('PreToolUse', 1, 2, 'rm -rf blocked\n'),
    ]);
    expect(r.permission).toEqual({ decision: 'deny', reason: 'rm -rf blocked', interrupt: false });
  });

  it('K2: PreToolUse exit 2 with empty stderr denies with the generic reason', () => {
    const r = reduce('PreToolUse', [exitRun('PreToolUse', 0, 2, '')]);
    expect(r.permission).toEqual({
      decision: 'deny',
      reason: 'Hook blocked the operation',
      interrupt: false,
    });
  });

  it('K3: exit 127 gives nonzero_exit and never blocks', () => {
    const r = reduce('PreToolUse', [exitRun('PreToolUse', 0, 127, 'not found')]);
    expect(r.permission).toBeNull();
    expect(codes(r)).toEqual(['nonzero_exit']);
    const prompt = reduce('UserPromptSubmit', [exitRun('UserPromptSubmit', 0, 127)]);
    expect(prompt).toMatchObject({ continue: true, stopReason: null });
  });

  it('K1: non-JSON stdout on PreToolUse gives malformed_json and no decision', () => {
    const r = reduce('PreToolUse', [makeRun(makeHandler('PreToolUse'), { stdout: 'deny please' })]);
    expect(codes(r)).toEqual(['malformed_json']);
    expect(r.permission).toBeNull();
    expect(r.context).toEqual([]);
  });

  it('X6: a timeout never blocks and none of its output applies', () => {
    const late = makeRun(makeHandler('PreToolUse'), {
      exitCode: null,
      timedOut: true,
      stdout: '{"decision":"block"}',
    });
    const r = reduce('PreToolUse', [late]);
    expect(r.permission).toBeNull();
    expect(r.diagnostics).toMatchObject([
      { code: 'timeout', handler: 'PreToolUse:0:0', origin: 'user' },
    ]);
  });

  it('M5: PermissionRequest deny carries message and interrupt and beats an earlier allow', () => {
    const r = reduce('PermissionRequest', [
      jsonRun(
        'PermissionRequest',
        0,
        specific('PermissionRequest', { decision: { behavior: 'allow' } }),
      ),
      jsonRun(
        'PermissionRequest',
        1,
        specific('PermissionRequest', {
          decision: { behavior: 'deny', message: 'No', interrupt: true },
        }),
      ),
    ]);
    expect(r.permission).toEqual({ decision: 'deny', reason: 'No', interrupt: true });
  });

  it('M5: PermissionRequest exit 2 denies with the stderr reason and no interrupt', () => {
    const r = reduce('PermissionRequest', [exitRun('PermissionRequest', 0, 2, 'nope')]);
    expect(r.permission).toEqual({ decision: 'deny', reason: 'nope', interrupt: false });
  });

  it('cli.md 3: permission is always null on events other than PreToolUse and PermissionRequest', () => {
    const r = reduce('PostToolUse', [exitRun('PostToolUse', 0, 2, 'lint failed')]);
    expect(r.permission).toBeNull();
  });

  it('M6: suppressOriginalPrompt is OR-ed across UserPromptSubmit handlers', () => {
    const flag = (i: number, v: boolean) =>
      jsonRun('UserPromptSubmit', i, specific('UserPromptSubmit', { suppressOriginalPrompt: v }));
    expect(
      reduce('UserPromptSubmit', [flag(0, false), flag(1, true), flag(2, false)])
        .suppressOriginalPrompt,
    ).toBe(true);
    expect(
      reduce('UserPromptSubmit', [flag(0, false), flag(1, false)]).suppressOriginalPrompt,
    ).toBe(false);
  });
});

describe('M7: caps', () => {
  const long = 'x'.repeat(10_050);

  it.each([
    ['SessionStart', { systemMessage: long }, 'systemMessages'],
    ['SessionStart', specific('SessionStart', { additionalContext: long }), 'context'],
    ['PreCompact', { continue: false, stopReason: long }, 'stopReason'],
    ['PostToolUse', { decision: 'block', reason: long }, 'feedback'],
    ['Stop', { decision: 'block', reason: long }, 'feedback'],
    [
      'PreToolUse',
      specific('PreToolUse', { permissionDecision: 'deny', permissionDecisionReason: long }),
      'permission',
    ],
  ] as const)(
    'M7: on %s a %j string is cut to 10,000 characters with output_capped',
    (event, output, field) => {
      const r = reduce(event, [jsonRun(event, 4, output)]);
      const value = r[field];
      const text =
        typeof value === 'string' ? value : Array.isArray(value) ? value[0] : value?.reason;
      expect(text).toHaveLength(10_000);
      expect(r.diagnostics).toMatchObject([{ code: 'output_capped', handler: `${event}:4:0` }]);
    },
  );

  it('M7: a string of exactly 10,000 characters is not capped, and a surrogate pair is never split', () => {
    const exact = reduce('SessionStart', [
      jsonRun('SessionStart', 0, { systemMessage: 'y'.repeat(10_000) }),
    ]);
    expect(exact.diagnostics).toEqual([]);
    const emoji = '😀'.repeat(10_001);
    const r = reduce('SessionStart', [jsonRun('SessionStart', 0, { systemMessage: emoji })]);
    expect(Array.from(r.systemMessages[0] ?? '')).toHaveLength(10_000);
    expect(r.systemMessages[0]).toBe('😀'.repeat(10_000));
  });
});

describe('section 1: block policy of each event (exit 2 with stderr "why")', () => {
  it.each(['SessionStart', 'SessionEnd', 'Notification', 'SubagentStart'] as const)(
    'section 1: a block on %s does nothing but unsupported_block, which keeps the reason',
    (event) => {
      const r = reduce(event, [exitRun(event, 0, 2, 'why')]);
      expect(codes(r)).toEqual(['unsupported_block']);
      expect(r.diagnostics[0]?.message).toBe(
        `${event} cannot be blocked; the block is ignored: why`,
      );
      expect(r).toMatchObject({
        continue: true,
        stopReason: null,
        context: [],
        feedback: [],
        continueLoop: false,
      });
    },
  );

  it.each(['UserPromptSubmit', 'PreCompact'] as const)(
    'section 1: a block on %s is BLOCK (continue=false, stop reason)',
    (event) => {
      const r = reduce(event, [exitRun(event, 0, 2, 'why')]);
      expect(r).toMatchObject({ continue: false, stopReason: 'why', permission: null });
    },
  );

  it.each(['PreToolUse', 'PermissionRequest'] as const)(
    'section 1: a block on %s is DENY',
    (event) => {
      const r = reduce(event, [jsonRun(event, 0, { decision: 'block', reason: 'why' })]);
      expect(r).toMatchObject({ continue: true, permission: { decision: 'deny', reason: 'why' } });
    },
  );

  it.each(['PostToolUse', 'PostToolUseFailure'] as const)(
    'section 1: a block on %s is FEEDBACK',
    (event) => {
      const r = reduce(event, [
        exitRun(event, 0, 2, 'why'),
        jsonRun(event, 1, { decision: 'block', reason: 'two' }),
      ]);
      expect(r).toMatchObject({ continue: true, feedback: ['why', 'two'], continueLoop: false });
    },
  );

  it('section 1: a block on Stop is CONTINUE (another turn with the reason as feedback)', () => {
    const r = reduce('Stop', [exitRun('Stop', 0, 2, 'why')]);
    expect(r).toMatchObject({ continue: true, continueLoop: true, feedback: ['why'] });
  });

  it('section 1: a block on SubagentStop is kept as context', () => {
    const r = reduce('SubagentStop', [exitRun('SubagentStop', 0, 2, 'why')], 0, false);
    expect(r).toMatchObject({ context: ['why'], continueLoop: false, feedback: [] });
  });

  it('section 1: a block on SubagentStop is ignored with continuation_guard when stop_hook_active', () => {
    const r = reduce(
      'SubagentStop',
      [
        exitRun('SubagentStop', 0, 2, 'why'),
        jsonRun('SubagentStop', 1, specific('SubagentStop', { additionalContext: 'ctx' })),
      ],
      0,
      true,
    );
    expect(r.context).toEqual(['ctx']);
    expect(r.diagnostics).toMatchObject([
      { code: 'continuation_guard', handler: 'SubagentStop:0:0' },
    ]);
  });

  // A host that reads SubagentStop context back as a block (Claude Code, Codex) would keep the
  // subagent going with it at every stop: the guard of a block then holds for the context too.
  it('section 1: SubagentStop context a host continues with is ignored with continuation_guard when stop_hook_active', () => {
    const runs = [
      exitRun('SubagentStop', 0, 2, 'why'),
      jsonRun('SubagentStop', 1, specific('SubagentStop', { additionalContext: 'ctx' })),
    ];
    const display = { subagentStopContext: 'continues' } as const;
    const base = { snapshotId: SNAPSHOT, continuationCount: 0, display };
    const active = reduceResults('SubagentStop', runs, { ...base, stopHookActive: true });
    expect(active.context).toEqual([]);
    expect(active.diagnostics).toMatchObject([
      { code: 'continuation_guard', handler: 'SubagentStop:0:0' },
      { code: 'continuation_guard', handler: 'SubagentStop:1:0' },
    ]);
    const fresh = reduceResults('SubagentStop', runs, { ...base, stopHookActive: false });
    expect(fresh.context).toEqual(['why', 'ctx']);
    expect(fresh.diagnostics).toEqual([]);
  });
});

describe('O1-O3: Stop continuations', () => {
  it('O1: Stop additionalContext requests a continuation with the context as feedback', () => {
    const r = reduce('Stop', [
      jsonRun('Stop', 0, {}),
      jsonRun('Stop', 1, specific('Stop', { additionalContext: 'run the tests' })),
      jsonRun('Stop', 2, { decision: 'block', reason: 'keep working' }),
    ]);
    expect(r).toMatchObject({
      continueLoop: true,
      feedback: ['run the tests', 'keep working'],
      context: [],
    });
  });

  it('O1: a Stop without block or context does not continue', () => {
    const r = reduce('Stop', [jsonRun('Stop', 0, { systemMessage: 'done' })]);
    expect(r).toMatchObject({ continueLoop: false, feedback: [], systemMessages: ['done'] });
  });

  it('O2: continue:false on Stop overrides any block', () => {
    const r = reduce('Stop', [
      exitRun('Stop', 0, 2, 'keep going'),
      jsonRun('Stop', 1, { continue: false, stopReason: 'halt' }),
    ]);
    expect(r).toMatchObject({
      continue: false,
      stopReason: 'halt',
      continueLoop: false,
      feedback: [],
    });
  });

  it.each([0, 1, 2, 3, 4, 5, 6, 7])(
    'O3: a Stop that always blocks continues at count %i',
    (count) => {
      const r = reduce('Stop', [exitRun('Stop', 0, 2, 'again')], count);
      expect(r).toMatchObject({ continueLoop: true, feedback: ['again'] });
      expect(r.diagnostics).toEqual([]);
    },
  );

  it.each([8, 9])('O3: at count %i the request is ignored with continuation_cap', (count) => {
    const r = reduce(
      'Stop',
      [
        exitRun('Stop', 0, 2, 'again'),
        jsonRun('Stop', 1, specific('Stop', { additionalContext: 'c' })),
      ],
      count,
    );
    expect(r).toMatchObject({ continueLoop: false, feedback: [], continue: true });
    expect(r.diagnostics).toMatchObject([
      { code: 'continuation_cap', handler: 'Stop:0:0' },
      { code: 'continuation_cap', handler: 'Stop:1:0' },
    ]);
  });
});

describe('cli.md 3: result shape', () => {
  it('cli.md 3: the result carries event, snapshotId and one run summary per run in configuration order', () => {
    const plugin = makeHandler('PreToolUse', 1, { plugin: 'guard@examples' });
    const r = reduce('PreToolUse', [
      makeRun(makeHandler('PreToolUse', 0), { durationMs: 40 }),
      makeRun(plugin, { exitCode: null, timedOut: true, durationMs: 2 }),
    ]);
    expect(r).toMatchObject({
      event: 'PreToolUse',
      snapshotId: SNAPSHOT,
      continue: true,
      stopReason: null,
    });
    expect(r.runs).toEqual([
      {
        handler: 'PreToolUse:0:0',
        origin: 'user',
        plugin: null,
        exitCode: 0,
        timedOut: false,
        durationMs: 40,
      },
      {
        handler: 'PreToolUse:1:0',
        origin: 'plugin',
        plugin: 'guard@examples',
        exitCode: null,
        timedOut: true,
        durationMs: 2,
      },
    ]);
    expect(r.diagnostics).toEqual([
      expect.objectContaining({
        code: 'timeout',
        handler: 'PreToolUse:1:0',
        origin: 'plugin',
        plugin: 'guard@examples',
      }),
    ]);
  });

  it('cli.md 3: no runs reduce to the neutral result', () => {
    expect(reduce('Stop', [])).toEqual(neutralResult('Stop', SNAPSHOT));
  });
});
