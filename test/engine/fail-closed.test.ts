import { describe, expect, it } from 'vitest';
import { applyFailClosed, failClosedOn, refusedPayload } from '../../src/engine/fail-closed.js';
import { noDecision } from '../../src/engine/no-decision.js';
import { CONTINUATION_CAP } from '../../src/engine/stop-continuation.js';
import { EVENT_NAMES, type EventName } from '../../src/hooks/events.js';
import type { FailClosed } from '../../src/hooks/fail-closed-entry.js';
import { nestsDeeperThan } from '../../src/json/nesting-depth.js';
import { dispatchEvent } from '../../src/engine/dispatch.js';
import { userSnapshot } from '../ops/dispatch-helpers.js';

const GUARD: FailClosed = { plugin: 'guard@x', events: ['PreToolUse'], reason: 'hookpm: guard' };
const fresh = { continuationCount: 0, stopHookActive: false };
const apply = (
  event: EventName,
  entries: FailClosed[] = [{ ...GUARD, events: null }],
  opts = fresh,
) => applyFailClosed(noDecision(event, 'id'), entries, opts);

describe('fail closed in the engine (engine.md B1-B6)', () => {
  it('B2: PreToolUse and PermissionRequest get a deny with the reason; a deny a handler gave keeps its reason after it', () => {
    expect(apply('PreToolUse').permission).toEqual({
      decision: 'deny',
      reason: 'hookpm: guard',
      interrupt: false,
    });
    expect(apply('PermissionRequest').permission?.decision).toBe('deny');
    const denied = {
      ...noDecision('PreToolUse', 'id'),
      permission: { decision: 'deny' as const, reason: 'other', interrupt: true },
    };
    expect(applyFailClosed(denied, [GUARD], fresh).permission).toEqual({
      decision: 'deny',
      reason: 'hookpm: guard\nother',
      interrupt: true,
    });
  });

  it('B2: an allow a handler gave becomes a deny', () => {
    const allowed = {
      ...noDecision('PreToolUse', 'id'),
      permission: { decision: 'allow' as const, reason: null, interrupt: false },
    };
    expect(applyFailClosed(allowed, [GUARD], fresh).permission?.decision).toBe('deny');
  });

  it('B2: UserPromptSubmit is blocked with the reason as stop reason', () => {
    expect(apply('UserPromptSubmit')).toMatchObject({
      continue: false,
      stopReason: 'hookpm: guard',
    });
  });

  it('B2, O3: Stop continues once with the reason, never over the cap nor when stop_hook_active', () => {
    expect(apply('Stop')).toMatchObject({ continueLoop: true, feedback: ['hookpm: guard'] });
    for (const opts of [
      { continuationCount: CONTINUATION_CAP, stopHookActive: false },
      { continuationCount: 0, stopHookActive: true },
    ])
      expect(apply('Stop', undefined, opts)).toMatchObject({
        continueLoop: false,
        systemMessages: ['hookpm: guard'],
      });
  });

  it('B2, O2: a Stop a handler ended with continue:false is not continued; the reason is a systemMessage', () => {
    const stopped = { ...noDecision('Stop', 'id'), continue: false, stopReason: 'done' };
    expect(applyFailClosed(stopped, [{ ...GUARD, events: null }], fresh)).toMatchObject({
      continue: false,
      stopReason: 'done',
      continueLoop: false,
      feedback: [],
      systemMessages: ['hookpm: guard'],
    });
  });

  it('B1, B2: every other event gets a systemMessage and no decision', () => {
    const others = EVENT_NAMES.filter(
      (e) => !['PreToolUse', 'PermissionRequest', 'UserPromptSubmit', 'Stop'].includes(e),
    );
    for (const event of others) {
      const result = apply(event);
      expect(result).toMatchObject({ systemMessages: ['hookpm: guard'], continue: true });
      expect(result.permission).toBeNull();
    }
  });

  it('B2: each entry adds one failed_closed error diagnostic naming its plugin', () => {
    expect(apply('PreToolUse').diagnostics).toEqual([
      {
        code: 'failed_closed',
        severity: 'error',
        message: 'hookpm: guard',
        origin: 'plugin',
        plugin: 'guard@x',
      },
    ]);
  });

  it('B6: an entry marked open is only told, as a systemMessage, with a warning', () => {
    const result = apply('PreToolUse', [{ ...GUARD, open: true }]);
    expect(result.permission).toBeNull();
    expect(result.systemMessages).toEqual(['hookpm: guard']);
    expect(result.diagnostics[0]?.severity).toBe('warning');
  });

  it('B2: only the entries of the event apply (null: every event)', () => {
    const state: FailClosed = { plugin: null, events: null, reason: 'state' };
    expect(failClosedOn([GUARD, state], 'Stop')).toEqual([state]);
    expect(failClosedOn([GUARD, state], 'PreToolUse')).toEqual([GUARD, state]);
    expect(failClosedOn(undefined, 'PreToolUse')).toEqual([]);
  });

  it('B5: a refused payload denies PreToolUse with payload_too_deep, and tells a Notification', () => {
    const denied = refusedPayload('PreToolUse', 'id');
    expect(denied.permission?.decision).toBe('deny');
    expect(denied.diagnostics.map((d) => d.code)).toEqual(['payload_too_deep']);
    expect(refusedPayload('Notification', 'id').systemMessages[0]).toContain('512 levels');
  });

  it('B5: a payload that is not UTF-8 denies PreToolUse with payload_not_utf8 and a fix', () => {
    const denied = refusedPayload('PreToolUse', 'id', 'not_utf8');
    expect(denied.permission?.decision).toBe('deny');
    expect(denied.permission?.reason).toMatch(
      /not valid UTF-8, so no handler ran; send .* as UTF-8$/,
    );
    expect(denied.diagnostics.map((d) => d.code)).toEqual(['payload_not_utf8']);
  });

  it('B5: nesting is counted with the payload as level 1: 512 levels pass, 513 do not, and a cycle ends', () => {
    const nest = (levels: number): unknown => {
      let value: unknown = 1;
      for (let i = 0; i < levels; i += 1) value = i % 2 === 0 ? { a: value } : [value];
      return value;
    };
    expect(nestsDeeperThan(nest(512))).toBe(false);
    expect(nestsDeeperThan(nest(513))).toBe(true);
    expect(nestsDeeperThan({ a: 'text', b: [1, 2, { c: null }] }, 3)).toBe(false);
    const cycle: Record<string, unknown> = {};
    cycle['self'] = cycle;
    expect(nestsDeeperThan(cycle)).toBe(true);
  });
});

describe('a Stop that fails closed with no handler run never loops (engine.md B2, B5, O3)', () => {
  const snapshot = userSnapshot('/', {});
  const stop = (input: Record<string, unknown>, opts: Record<string, unknown> = {}) =>
    dispatchEvent(snapshot, 'Stop', input, opts);
  const deep: unknown = JSON.parse(`${'['.repeat(600)}${']'.repeat(600)}`);
  const entry: FailClosed = { plugin: 'guard@x', events: null, reason: 'hookpm: guard' };

  it('B5, O3: a refused Stop payload continues once, never again past the cap nor when stop_hook_active', async () => {
    expect((await stop({ deep })).continueLoop).toBe(true);
    // X2: stop_hook_active is continuationCount > 0, unless the payload gives it.
    expect((await stop({ deep }, { continuationCount: 1 })).continueLoop).toBe(false);
    expect((await stop({ deep }, { continuationCount: CONTINUATION_CAP })).continueLoop).toBe(
      false,
    );
    expect((await stop({ deep, stop_hook_active: true })).continueLoop).toBe(false);
    const refused = await stop({ deep }, { continuationCount: 20 });
    expect(refused.systemMessages[0]).toContain('512 levels');
    expect(refused.diagnostics.map((d) => d.code)).toEqual(['payload_too_deep']);
  });

  it('B2, X2: a plugin failing closed on a Stop no handler matches continues it once, not again while stop_hook_active', async () => {
    const failClosed = [entry];
    expect((await stop({}, { failClosed })).continueLoop).toBe(true);
    const again = await stop({}, { failClosed, continuationCount: 1 });
    expect(again).toMatchObject({ continueLoop: false, systemMessages: ['hookpm: guard'] });
    const told = await stop({ stop_hook_active: false }, { failClosed, continuationCount: 1 });
    expect(told.continueLoop).toBe(true);
  });
});
