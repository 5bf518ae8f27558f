import { expect } from 'vitest';
import { noDecision } from '../../src/engine/no-decision.js';
import type { DispatchResult } from '../../src/engine/types.js';
import type { EventName } from '../../src/hooks/events.js';

/** A reduced result of `event` that decides nothing, but for `fields`. */
export function result(event: EventName, fields: Partial<DispatchResult> = {}): DispatchResult {
  return { ...noDecision(event, 'a'.repeat(64)), ...fields };
}

/** A wire adapter's stdout for a result, parsed (null when there is none). */
export type WireOut = (r: DispatchResult) => unknown;

type Decision = 'deny' | 'ask' | 'allow';

/** A PreToolUse `decision` with reason `why` is Claude Code's permissionDecision (Codex reads it too). */
export function expectPreToolUseDecision(out: WireOut, decision: Decision): void {
  expect(
    out(result('PreToolUse', { permission: { decision, reason: 'why', interrupt: false } })),
  ).toEqual({
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: decision,
      permissionDecisionReason: 'why',
    },
  });
}

/** A PermissionRequest with `decision`, its reason and interrupt. */
export function permissionRequest(
  decision: Decision,
  reason: string | null,
  interrupt: boolean,
): DispatchResult {
  return result('PermissionRequest', { permission: { decision, reason, interrupt } });
}

/** A PermissionRequest deny carries its reason as message, and interrupt. */
export function expectPermissionRequestDeny(out: WireOut): void {
  expect(out(permissionRequest('deny', 'no', true))).toEqual({
    hookSpecificOutput: {
      hookEventName: 'PermissionRequest',
      decision: { behavior: 'deny', message: 'no', interrupt: true },
    },
  });
}
