import { randomUUID } from 'node:crypto';
import { filterEnvironment } from '../../engine/environment.js';
import { buildPayload } from '../../engine/payload.js';
import { reduceResults } from '../../engine/reduce.js';
import { runHandler, type RunHandlerOptions } from '../../engine/run-handler.js';
import type { DispatchResult } from '../../engine/types.js';
import { HookpmError } from '../../errors.js';
import type { EventName } from '../../hooks/events.js';
import { matchHandlers } from '../../hooks/snapshot/snapshot-match.js';
import type { Snapshot } from '../../hooks/snapshot/snapshot.js';
import type { SnapshotHandler } from '../../hooks/types.js';

/** What the host knows about one invocation, beyond the event's own fields (engine.md X2). */
export interface DispatchOptions {
  /** `session_id` of the payload; default: the input's `session_id`, else a fresh UUID. */
  sessionId?: string;
  /** The invocation's working directory (X4); default: the input's `cwd`, else the project root. */
  cwd?: string;
  /** Consecutive Stop continuations so far (O3); default 0. A non-negative integer. */
  continuationCount?: number;
  /** The parent environment handlers inherit, less secrets (X5); default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Aborting kills every running handler's process group, as a deadline does. */
  signal?: AbortSignal;
  transcriptPath?: string;
  /** `permission_mode` of the payload; default: the input's, else `default`. */
  permissionMode?: string;
}

/**
 * Dispatches one event on a snapshot (engine.md sections 7-9): builds the payload (X2), matches the
 * handlers (sections 4-5), starts every matching one at once (X1), and reduces their runs in
 * configuration order (S3) to the result of cli.md section 3. The result's diagnostics are the run's
 * only; snapshot diagnostics are the caller's to report (cli.md section 3). Never rejects for a
 * handler fault; rejects with E_USAGE for a continuationCount that is not a non-negative integer.
 *
 * Matching reads `input` directly: the matcher fields (section 1) and the `if` rule's tool fields are
 * event fields, which the payload copies unchanged, so the payload is built and serialised only when
 * some handler matched. A dispatch that matches nothing allocates one result and one promise.
 */
export function dispatchEvent(
  snapshot: Snapshot,
  event: EventName,
  input: Readonly<Record<string, unknown>>,
  opts: DispatchOptions = {},
): Promise<DispatchResult> {
  const continuationCount = opts.continuationCount ?? 0;
  if (!Number.isSafeInteger(continuationCount) || continuationCount < 0) {
    return Promise.reject(badContinuationCount(continuationCount));
  }
  const matched = snapshot.groups[event] === undefined ? [] : matchHandlers(snapshot, event, input);
  if (matched.length === 0) {
    return Promise.resolve(
      reduceResults(event, [], { snapshotId: snapshot.id, continuationCount }),
    );
  }
  return runMatched({ snapshot, event, input, opts, matched, continuationCount });
}

interface Invocation {
  snapshot: Snapshot;
  event: EventName;
  input: Readonly<Record<string, unknown>>;
  opts: DispatchOptions;
  matched: readonly SnapshotHandler[];
  continuationCount: number;
}

async function runMatched(call: Invocation): Promise<DispatchResult> {
  const { snapshot, event, input, opts, continuationCount } = call;
  const cwd = opts.cwd ?? stringField(input, 'cwd') ?? snapshot.projectDir;
  const payload = buildPayload(event, input, {
    sessionId: opts.sessionId ?? stringField(input, 'session_id') ?? randomUUID(),
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
    env: filterEnvironment(opts.env ?? process.env),
    ...(opts.signal === undefined ? {} : { signal: opts.signal }),
  };
  // X1: all start now; Promise.all keeps configuration order whatever order they finish in.
  const runs = await Promise.all(call.matched.map((handler) => runHandler(handler, runOptions)));
  return reduceResults(event, runs, {
    snapshotId: snapshot.id,
    continuationCount,
    stopHookActive: payload['stop_hook_active'] === true,
  });
}

function stringField(input: Readonly<Record<string, unknown>>, key: string): string | undefined {
  const value = Object.hasOwn(input, key) ? input[key] : undefined;
  return typeof value === 'string' ? value : undefined;
}

function badContinuationCount(found: unknown): HookpmError {
  return new HookpmError(
    'E_USAGE',
    `continuationCount must be a non-negative integer, found ${String(found)}`,
    { expected: 'a non-negative integer', found, hint: 'Pass 0 for a fresh turn (engine.md O3).' },
  );
}
