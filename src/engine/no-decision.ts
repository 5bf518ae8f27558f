import type { HookEventName } from '../hooks/events.js';
import type { DispatchResult } from './types.js';

/**
 * The result of a dispatch that no handler matched: exactly what reduceResults gives for no runs
 * (test/engine/no-decision.test.ts holds them equal), without loading the output parser and its
 * schemas, which a dispatch that runs nothing never needs (bench/link.bench.mjs).
 */
export function noDecision(event: HookEventName, snapshotId: string): DispatchResult {
  return {
    event,
    snapshotId,
    continue: true,
    stopReason: null,
    systemMessages: [],
    context: [],
    permission: null,
    feedback: [],
    continueLoop: false,
    suppressOriginalPrompt: false,
    diagnostics: [],
    runs: [],
  };
}
