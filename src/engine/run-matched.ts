import { randomUUID } from 'node:crypto';
import { filterEnvironment } from './environment.js';
import { buildPayload } from './payload.js';
import { parseRuns, reduceParsed } from './reduce.js';
import { runHandler, type RunHandlerOptions } from './run-handler.js';
import type { DispatchResult } from './types.js';
import type { EventName } from '../hooks/events.js';
import type { Snapshot } from '../hooks/snapshot/snapshot.js';
import type { SnapshotHandler } from '../hooks/types.js';
import { runDecision } from './run-decision.js';
import { applyFailClosed, failClosedOn } from './fail-closed.js';
import { stringField, type DispatchOptions } from './dispatch-options.js';

/** One dispatch whose matching handlers are known (dispatch.ts). */
export interface Invocation {
  snapshot: Snapshot;
  event: EventName;
  input: Readonly<Record<string, unknown>>;
  opts: DispatchOptions;
  matched: readonly SnapshotHandler[];
  continuationCount: number;
}

/** Runs the matched handlers at once (X1) and reduces their runs in configuration order (S3). */
export async function runMatched(call: Invocation): Promise<DispatchResult> {
  const { snapshot, event, input, opts, continuationCount } = call;
  const cwd = opts.cwd ?? stringField(input, 'cwd') ?? snapshot.projectDir;
  const sessionId = opts.sessionId ?? stringField(input, 'session_id') ?? randomUUID();
  const startedAt = Date.now();
  const payload = buildPayload(event, input, {
    sessionId,
    cwd,
    continuationCount,
    ...(opts.transcriptPath === undefined ? {} : { transcriptPath: opts.transcriptPath }),
    ...(opts.permissionMode === undefined ? {} : { permissionMode: opts.permissionMode }),
  });
  const runOptions: RunHandlerOptions = {
    stdin: JSON.stringify(payload),
    cwd,
    projectDir: snapshot.projectDir,
    // X5 once per dispatch: reading a live process.env costs a native call per variable, so each
    // handler copies this plain, already filtered object instead (about 25 µs less per handler).
    env: filterEnvironment(opts.env ?? process.env, opts.passEnv),
    ...(opts.passEnv === undefined ? {} : { passEnv: opts.passEnv }),
    ...(opts.signal === undefined ? {} : { signal: opts.signal }),
  };
  // X1: all start now; Promise.all keeps configuration order whatever order they finish in.
  const runs = await Promise.all(call.matched.map((handler) => runHandler(handler, runOptions)));
  // Each output is parsed once: reduction and the log's per-run decisions read the same parse.
  const parsed = parseRuns(event, runs);
  const stopHookActive = payload['stop_hook_active'] === true;
  const reduced = reduceParsed(event, parsed, {
    snapshotId: snapshot.id,
    continuationCount,
    stopHookActive,
  });
  // docs/reference/rules/engine.md#fail-closed: what cannot run as consented, after what ran.
  const failing = failClosedOn(opts.failClosed, event);
  const result =
    failing.length === 0
      ? reduced
      : applyFailClosed(reduced, failing, { continuationCount, stopHookActive });
  if (opts.log !== undefined) {
    try {
      const decisions = parsed.map(({ output }) => runDecision(output, event));
      opts.log({ event, startedAt, sessionId, payload, runs, decisions, result });
    } catch {
      // The log never fails a dispatch (docs/guides/decision-log.md).
    }
  }
  return result;
}
