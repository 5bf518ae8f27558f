import {
  applyFailClosed,
  failClosedOn,
  refusedPayload,
  type FailClosedOptions,
} from './fail-closed.js';
import { noDecision } from './no-decision.js';
import type { DispatchResult } from './types.js';
import { HookpmError } from '../errors.js';
import type { EventName } from '../hooks/events.js';
import { matchHandlers } from '../hooks/snapshot/snapshot-match.js';
import type { Snapshot } from '../hooks/snapshot/snapshot.js';
import { callLog, stringField, type DispatchOptions } from './dispatch-options.js';
import { nestsDeeperThan } from '../json/nesting-depth.js';
import { checkDispatchCall, unreadableInput } from './dispatch-call.js';
import { stopHookActiveOf } from './stop-hook-active.js';

/**
 * Dispatches one event on a snapshot (docs/reference/rules/engine.md#running-handlers,
 * #output-and-reduction, #stop-continuations): builds the payload (X2), matches the handlers
 * (sections 4-5), starts every matching one at once (X1), and reduces their runs in configuration
 * order (S3) to the result of docs/reference/rules/cli.md#json-shapes. The result's diagnostics are
 * the run's only; snapshot diagnostics are the caller's to report
 * (docs/reference/rules/cli.md#json-shapes). Never rejects for a handler fault, and never throws;
 * rejects with E_USAGE for a call it cannot read (dispatch-call.ts: an unknown event, an input
 * that is not a plain object or that throws when read, a `signal` that is not an AbortSignal),
 * for a continuationCount that is not a non-negative integer, and for a payload JSON cannot hold
 * (run-matched.ts).
 *
 * Matching reads `input` directly: the matcher fields (docs/reference/rules/engine.md#events) and
 * the `if` rule's tool fields are event fields, which the payload copies unchanged, so the payload
 * is built and serialised only when some handler matched. A dispatch that matches nothing allocates
 * one result and one promise, and loads nothing more (run-matched.ts runs the rest); its `log`
 * record has no runs, and the event's input for a payload.
 *
 * docs/reference/rules/engine.md#fail-closed: `opts.failClosed` entries for the event are added to
 * the result (before the log sees it) whether or not a handler matched; an input nested deeper than
 * MAX_DEPTH levels runs nothing and fails closed itself (refusedPayload), unlogged.
 */
export function dispatchEvent(
  snapshot: Snapshot,
  event: EventName,
  input: Readonly<Record<string, unknown>>,
  opts: DispatchOptions = {},
): Promise<DispatchResult> {
  try {
    const bad = checkDispatchCall(event, input, opts);
    if (bad !== null) return Promise.reject(bad);
    return dispatchChecked(snapshot, event, input, opts);
  } catch (error) {
    // A getter or a proxy of the caller's input that throws while it is matched (B5's walk, the
    // matcher and `if` fields): the dispatch rejects, it never throws.
    return Promise.reject(unreadableInput(event, error));
  }
}

function dispatchChecked(
  snapshot: Snapshot,
  event: EventName,
  input: Readonly<Record<string, unknown>>,
  opts: DispatchOptions,
): Promise<DispatchResult> {
  const continuationCount = opts.continuationCount ?? 0;
  if (!Number.isSafeInteger(continuationCount) || continuationCount < 0) {
    return Promise.reject(badContinuationCount(continuationCount));
  }
  if (nestsDeeperThan(input)) {
    const stop = stopState(event, input, continuationCount);
    return Promise.resolve(refusedPayload(event, snapshot.id, 'too_deep', stop));
  }
  const home = opts.home ?? ((opts.env ?? process.env).HOME || null);
  // F2: `if` path rules read a relative path from opts.cwd, where the handlers run (X4).
  const how = {
    which: opts.handlers ?? 'engine',
    aliases: opts.matcherAliases,
    home,
    cwd: opts.cwd,
  };
  const matched =
    snapshot.groups[event] === undefined ? [] : matchHandlers(snapshot, event, input, how);
  if (matched.length === 0) {
    const failing = failClosedOn(opts.failClosed, event);
    const result =
      failing.length === 0
        ? noDecision(event, snapshot.id)
        : applyFailClosed(
            noDecision(event, snapshot.id),
            failing,
            stopState(event, input, continuationCount),
          );
    if (opts.notes !== undefined) result.diagnostics.push(...opts.notes);
    if (opts.log !== undefined) logUnmatched(opts.log, event, input, opts, result);
    return Promise.resolve(result);
  }
  // The runner, the payload builder and the output parser load only when something runs.
  return import('./run-matched.js').then(({ runMatched }) =>
    runMatched({ snapshot, event, input, opts, matched, continuationCount }),
  );
}

/**
 * engine.md B2: the Stop state a dispatch that runs no handler fails closed with, read as its
 * payload would say it (X2), so its Stop is continued only as one whose handlers ran would be:
 * not past the O3 cap, not while `stop_hook_active`.
 */
function stopState(
  event: EventName,
  input: Readonly<Record<string, unknown>>,
  continuationCount: number,
): FailClosedOptions {
  return { continuationCount, stopHookActive: stopHookActiveOf(event, input, continuationCount) };
}

/** The log record of a dispatch that ran nothing: no runs, no made-up session id. */
function logUnmatched(
  log: NonNullable<DispatchOptions['log']>,
  event: EventName,
  input: Readonly<Record<string, unknown>>,
  opts: DispatchOptions,
  result: DispatchResult,
): void {
  try {
    const sessionId = opts.sessionId ?? stringField(input, 'session_id') ?? null;
    callLog(log, {
      event,
      startedAt: Date.now(),
      sessionId,
      payload: input,
      runs: [],
      decisions: [],
      result,
      ...(opts.notes === undefined ? {} : { notes: opts.notes }),
    });
  } catch {
    // The log never fails a dispatch (docs/guides/decision-log.md).
  }
}

function badContinuationCount(found: unknown): HookpmError {
  return new HookpmError(
    'E_USAGE',
    `continuationCount must be a non-negative integer, found ${String(found)}`,
    {
      expected: 'a non-negative integer',
      found,
      hint: 'Pass 0 for a fresh turn (no Stop continuation yet).',
    },
  );
}
