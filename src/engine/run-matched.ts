import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { HookpmError } from '../errors.js';
import { describeValue } from '../json/describe-value.js';
import { filterEnvironment } from './environment.js';
import { buildPayload } from './payload.js';
import { parseRuns, reduceParsed } from './reduce.js';
import { runHandler, type RunHandlerOptions } from './run-handler.js';
import type { DispatchResult } from './types.js';
import type { EventName } from '../hooks/events.js';
import type { Snapshot } from '../hooks/snapshot/snapshot.js';
import type { SnapshotHandler } from '../hooks/types.js';
import { runDecision } from './run-decision.js';
import { applyFailClosed, failClosedOn, stoppedRuns } from './fail-closed.js';
import { callLog, stringField, type DispatchOptions } from './dispatch-options.js';
import { cwdProblem, cwdUnusable } from '../io/cwd-problem.js';
import type { Diagnostic } from '../hooks/diagnostic.js';
import { mapBounded } from './bounded-map.js';
import { unreadableInput } from './dispatch-call.js';
import { loadWireOutputReader, mayHoldJson } from './wire-output-reader.js';

/**
 * X1: the most handlers of one dispatch that run at once; they start one per turn of the event loop
 * (bounded-map.ts). Measured on a busy 2-core machine (docs/design/decisions.md): a spawn costs
 * the host 10-40 ms, which sets the pace whatever the bound. 500 `true` handlers took 13-16 s at
 * bounds 8, 32, 128 and none alike, none timed out, the longest run 0.2-0.3 s (spawned in one loop,
 * 1,259-1,651 of 2,000 timed out at 10 s); 400 handlers of `sleep 1` took 16.4 s unbounded, 15.5 s
 * at 32 and 13.6 s at 64. The bound keeps live processes and their pipes few, and fewer hung
 * handlers than it never hold up the rest.
 */
export const HANDLERS_AT_ONCE = 64;

/** One dispatch whose matching handlers are known (dispatch.ts). */
export interface Invocation {
  snapshot: Snapshot;
  event: EventName;
  input: Readonly<Record<string, unknown>>;
  opts: DispatchOptions;
  matched: readonly SnapshotHandler[];
  continuationCount: number;
}

/**
 * Runs the matched handlers, HANDLERS_AT_ONCE at a time (X1), and reduces their runs in
 * configuration order (S3).
 */
export async function runMatched(call: Invocation): Promise<DispatchResult> {
  const { snapshot, event, input, opts, continuationCount } = call;
  let cwd: string, sessionId: string, payload: Record<string, unknown>;
  let notes = opts.notes;
  try {
    const where = invocationCwd(opts, input, snapshot.projectDir);
    cwd = where.cwd;
    if (where.note !== undefined) notes = [...(notes ?? []), where.note];
    sessionId = opts.sessionId ?? stringField(input, 'session_id') ?? randomUUID();
    payload = buildPayload(event, input, {
      sessionId,
      cwd,
      continuationCount,
      ...(opts.transcriptPath === undefined ? {} : { transcriptPath: opts.transcriptPath }),
      ...(opts.permissionMode === undefined ? {} : { permissionMode: opts.permissionMode }),
    });
  } catch (error) {
    throw unreadableInput(event, error); // a getter of the caller's input threw: nothing started
  }
  const startedAt = Date.now();
  const runOptions: RunHandlerOptions = {
    stdin: payloadJson(event, payload),
    cwd,
    projectDir: snapshot.projectDir,
    // X5 once per dispatch: reading a live process.env costs a native call per variable, so each
    // handler copies this plain, already filtered object instead (about 25 µs less per handler).
    env: filterEnvironment(opts.env ?? process.env, opts.passEnv),
    ...(opts.passEnv === undefined ? {} : { passEnv: opts.passEnv }),
    ...(opts.signal === undefined ? {} : { signal: opts.signal }),
    ...(opts.deadline === undefined ? {} : { deadline: opts.deadline }),
  };
  // X1: the first HANDLERS_AT_ONCE start now, each later one as an earlier one settles; each
  // deadline starts at its own spawn (X6). Runs keep configuration order, whatever order they end.
  const runs = await mapBounded(call.matched, HANDLERS_AT_ONCE, (handler) =>
    runHandler(handler, runOptions),
  );
  // L1: zod loads only when an output may be JSON (wire-output-reader.ts).
  if (runs.some(mayHoldJson)) await loadWireOutputReader();
  // Each output is parsed once: reduction and the log's per-run decisions read the same parse.
  const parsed = parseRuns(event, runs);
  const stopHookActive = payload['stop_hook_active'] === true;
  const reduced = reduceParsed(event, parsed, {
    snapshotId: snapshot.id,
    continuationCount,
    stopHookActive,
    ...(opts.display === undefined ? {} : { display: opts.display }),
  });
  // docs/reference/rules/engine.md#fail-closed: what cannot run as consented, after what ran,
  // and the handlers a stopped dispatch killed before they decided (B8).
  const failing = [
    ...failClosedOn(opts.failClosed, event),
    ...stoppedRuns(runs, event, opts.signal),
  ];
  const closed =
    failing.length === 0
      ? reduced
      : applyFailClosed(reduced, failing, { continuationCount, stopHookActive });
  if (notes !== undefined) closed.diagnostics.unshift(...notes);
  const result =
    opts.settle === undefined
      ? closed
      : await opts.settle(closed, { continuationCount, stopHookActive });
  if (opts.log !== undefined) {
    try {
      const decisions = parsed.map(({ output }) => runDecision(output, event));
      callLog(opts.log, {
        event,
        startedAt,
        sessionId,
        payload,
        runs,
        decisions,
        result,
        ...(notes === undefined ? {} : { notes }),
      });
    } catch {
      // The log never fails a dispatch (docs/guides/decision-log.md).
    }
  }
  return result;
}

/**
 * X2: the payload as one compact JSON object. A library caller's value that JSON cannot hold (a
 * BigInt, a cycle, a `toJSON` that throws) rejects the dispatch with E_USAGE naming the event,
 * before any handler starts.
 */
function payloadJson(event: EventName, payload: Record<string, unknown>): string {
  try {
    return JSON.stringify(payload);
  } catch (error) {
    const why = describeValue(error instanceof Error ? error.message : String(error));
    throw new HookpmError('E_USAGE', `the ${event} payload cannot be written as JSON: ${why}`, {
      hint: 'Pass only JSON values in the payload: strings, numbers, booleans, null, arrays and plain objects.',
    });
  }
}

/**
 * X4 for a dispatch: where its handlers run. The host's `cwd` option when it gives one (`hookpm
 * wire` and the session choose theirs by cli.md W2 first; a relative one is read from the
 * process's directory) and it is a directory hookpm can enter; else the input's `cwd` when it is
 * an absolute path of such a directory; else the project root, with a `cwd_unusable` warning
 * naming the problem when the option or the input gave a `cwd` it could not use (an input without
 * one runs in the project root): a directory gone since the host chose it must not keep a guard
 * from deciding (cli.md W2). A project root that cannot be entered either is used as it is: the
 * handlers then fail to launch and say so (X8).
 */
function invocationCwd(
  opts: Pick<DispatchOptions, 'cwd'>,
  input: Readonly<Record<string, unknown>>,
  projectDir: string,
): { cwd: string; note?: Diagnostic } {
  let given: unknown, problem: string | null;
  if (opts.cwd !== undefined) {
    // A JavaScript caller's option may be anything: it is checked as a payload's cwd is.
    const option: unknown = opts.cwd;
    given = typeof option === 'string' ? resolve(option) : option;
    problem = cwdProblem(given, 'the cwd option');
  } else {
    given = Object.hasOwn(input, 'cwd') ? input['cwd'] : undefined;
    if (given === undefined) return { cwd: projectDir };
    problem = cwdProblem(given);
  }
  if (problem === null) return { cwd: given as string };
  return { cwd: projectDir, note: cwdUnusable(problem, projectDir, 'the project root') };
}
