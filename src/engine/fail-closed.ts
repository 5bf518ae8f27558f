import type { EventName, HookEventName } from '../hooks/events.js';
import { BLOCKING_EVENTS, type FailClosed } from '../hooks/fail-closed-entry.js';
import { MAX_DEPTH } from '../json/nesting-depth.js';
import { handlerOwner } from './handler-diagnostic.js';
import { noDecision } from './no-decision.js';
import { CONTINUATION_CAP } from './stop-continuation.js';
import type { DispatchResult, HandlerRun, ResultDiagnostic } from './types.js';

/** The entries that apply to `event`. */
export function failClosedOn(
  entries: readonly FailClosed[] | undefined,
  event: HookEventName,
): FailClosed[] {
  if (entries === undefined || entries.length === 0) return [];
  return entries.filter((e) => e.events === null || e.events.includes(event));
}

export interface FailClosedOptions {
  /** Consecutive Stop continuations so far (O3). */
  continuationCount: number;
  /** The payload's `stop_hook_active`: a Stop already continued by a hook is not blocked again. */
  stopHookActive: boolean;
}

/**
 * docs/reference/rules/engine.md#fail-closed: `result` with `entries` (those for its event) added.
 * PreToolUse and PermissionRequest get a deny whose reason starts with the entries' reasons;
 * UserPromptSubmit gets `continue: false` with them as stop reason; Stop continues the turn with
 * them (once per stop: not over the O3 cap, not when `stop_hook_active`, so a Stop never loops;
 * never once a handler set `continue: false`, O2);
 * every other event, an entry marked `open`, and a Stop not continued get them as a
 * `systemMessage`. Each entry adds one `failed_closed` error diagnostic naming its plugin.
 */
export function applyFailClosed(
  result: DispatchResult,
  entries: readonly FailClosed[],
  opts: FailClosedOptions,
): DispatchResult {
  if (entries.length === 0) return result;
  const event = result.event;
  const closed = entries.filter((e) => e.open !== true && BLOCKING_EVENTS.has(event));
  const told = entries.filter((e) => !closed.includes(e)).map((e) => e.reason);
  const out: DispatchResult = {
    ...result,
    systemMessages: [...result.systemMessages],
    feedback: [...result.feedback],
    diagnostics: [...result.diagnostics, ...entries.map(failedClosedDiagnostic)],
  };
  const reasons = closed.map((e) => e.reason);
  if (reasons.length > 0) {
    const text = reasons.join('\n');
    if (event === 'PreToolUse' || event === 'PermissionRequest') {
      const earlier = result.permission?.decision === 'deny' ? result.permission : null;
      out.permission = {
        decision: 'deny',
        reason: earlier?.reason ? `${text}\n${earlier.reason}` : text,
        interrupt: earlier?.interrupt ?? false,
      };
    } else if (event === 'UserPromptSubmit') {
      out.continue = false;
      out.stopReason = result.stopReason === null ? text : `${text}\n${result.stopReason}`;
    } else if (
      result.continue &&
      opts.continuationCount < CONTINUATION_CAP &&
      !opts.stopHookActive
    ) {
      out.continueLoop = true;
      out.feedback = [...reasons, ...result.feedback];
    } else {
      told.unshift(...reasons);
    }
  }
  if (told.length > 0) out.systemMessages = [...told, ...out.systemMessages];
  return out;
}

/** The reason a session aborts its dispatches with when it closes (its `shutdown`, `close()`). */
export const SESSION_CLOSED: unique symbol = Symbol('hookpm session closed');

/**
 * docs/reference/rules/engine.md#b8: the entries for the runs of a dispatch whose host stopped it
 * (its signal aborted: a session's shutdown, whose reason is SESSION_CLOSED, or a library caller's
 * signal): each handler that did not exit by itself, or that was still running when the stop came
 * (HandlerRun.stopped), could not decide, so it fails closed on `event` as a plugin that cannot
 * run does; the reason tells a handler killed from one never started (its failure says why), and
 * the session's close from a caller's abort. None when not stopped.
 */
export function stoppedRuns(
  runs: readonly HandlerRun[],
  event: HookEventName,
  signal: AbortSignal | undefined,
): FailClosed[] {
  if (signal?.aborted !== true) return [];
  const by =
    signal.reason === SESSION_CLOSED
      ? '(the session shut down); retry in a new session'
      : "by its caller's signal; retry the event";
  return runs
    .filter((run) => run.stopped === true || (run.exitCode === null && !run.timedOut))
    .map(({ handler, stopped, failure }) => {
      const what =
        stopped !== true && failure !== null ? 'was not started' : 'was killed before it decided';
      const reason = `hookpm fails closed: handler ${handler.id} of ${handlerOwner(handler)} ${what}, as its dispatch was stopped ${by}`;
      return { plugin: handler.plugin, events: [event], reason };
    });
}

/** An entry's `failed_closed` diagnostic: an error, a warning when it fails open; naming its plugin. */
export function failedClosedDiagnostic(entry: FailClosed): ResultDiagnostic {
  const where: ResultDiagnostic = {
    code: 'failed_closed',
    severity: entry.open === true ? 'warning' : 'error',
    message: entry.reason,
  };
  if (entry.plugin !== null) {
    where.origin = 'plugin';
    where.plugin = entry.plugin;
  }
  return where;
}

/**
 * docs/reference/rules/engine.md#b5: why a payload runs nothing. `too_deep`: it nests deeper than
 * MAX_DEPTH levels; `not_utf8`: its bytes are not UTF-8 (an agent's stdin under `wire`, read with
 * replacement characters only to learn the event).
 */
export type PayloadRefusal = 'too_deep' | 'not_utf8';

/** The reason of a refused payload (PayloadRefusal), with the fix where the sender has one. */
export function refusedPayloadReason(event: string, refusal: PayloadRefusal): string {
  return refusal === 'too_deep'
    ? `hookpm refused the ${event} payload: it is nested deeper than ${MAX_DEPTH} levels, so no handler ran; send it with its values (a tool's input) nested less deeply`
    : `hookpm refused the ${event} payload: it is not valid UTF-8, so no handler ran; send its text (a command, a path, a prompt) as UTF-8`;
}

/**
 * docs/reference/rules/engine.md#fail-closed: the result of an event whose payload is refused
 * (PayloadRefusal): no handler ran; its blocking answer on a blocking event, else a
 * `systemMessage`; one error diagnostic, `payload_too_deep` or `payload_not_utf8`. `stop`: the
 * Stop state of the payload (B2: a Stop is continued once, never past the cap nor while
 * `stop_hook_active`); default a fresh turn.
 */
export function refusedPayload(
  event: EventName,
  snapshotId: string,
  refusal: PayloadRefusal = 'too_deep',
  stop: FailClosedOptions = { continuationCount: 0, stopHookActive: false },
): DispatchResult {
  const reason = refusedPayloadReason(event, refusal);
  const entry: FailClosed = { plugin: null, events: null, reason };
  const result = applyFailClosed(noDecision(event, snapshotId), [entry], stop);
  const code = refusal === 'too_deep' ? 'payload_too_deep' : 'payload_not_utf8';
  return { ...result, diagnostics: [{ code, severity: 'error', message: reason }] };
}
