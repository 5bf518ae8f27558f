import type { DispatchResult, HandlerRun, ResultDiagnostic } from './types.js';
import type { HookEventName } from '../hooks/events.js';
import type { LoggedDecision } from './run-decision.js';
import type { FailClosed } from '../hooks/fail-closed-entry.js';
import type { HandlerSet } from '../hooks/snapshot/snapshot-match.js';
import type { HostDisplay } from './host-display.js';
import type { FailClosedOptions } from './fail-closed.js';

/** What the host knows about one invocation, beyond the event's own fields (engine.md X2). */
export interface DispatchOptions {
  /** plugins.md G3: which handlers run (snapshot-match.ts HandlerSet); default `engine`. */
  handlers?: HandlerSet;
  /** cli.md W4: the agent's other names of the value matchers compare (`wire codex`'s tools). */
  matcherAliases?: readonly string[];
  /** `session_id` of the payload; default: the input's `session_id`, else a fresh UUID. */
  sessionId?: string;
  /**
   * The invocation's working directory (X4); default: the input's `cwd`, else the project root.
   * One that is not a directory hookpm can enter runs the handlers in the project root instead,
   * with a `cwd_unusable` warning (cli.md W2), so that a guard still decides.
   */
  cwd?: string;
  /**
   * The user's home directory, which `~/` of an `if` path rule names (engine.md F2); default: the
   * `HOME` of `env`. Without one, `~/p` rules hold under any directory.
   */
  home?: string;
  /** Consecutive Stop continuations so far (O3); default 0. A non-negative integer. */
  continuationCount?: number;
  /** The parent environment handlers inherit, less secrets (X5); default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Names X5 would remove that handlers get all the same (`env.pass` of settings.json). */
  passEnv?: readonly string[];
  /**
   * Aborting kills every running handler's process group, as a deadline does; each handler killed
   * before it decided fails closed (engine.md B8: on PreToolUse, a deny).
   */
  signal?: AbortSignal;
  /**
   * The host's own deadline (engine.md X6), as a `performance.now()` value: every handler is ended
   * by then, whatever its `timeout`, and one not started by then is not started; both count as
   * timeouts. `hookpm wire` sets it from the agent's deadline for hookpm.
   */
  deadline?: number;
  /**
   * What the host noted about this invocation before dispatching it (a payload `cwd` it could not
   * use): first among the result's diagnostics, and in the log record.
   */
  notes?: readonly ResultDiagnostic[];
  transcriptPath?: string;
  /** `permission_mode` of the payload; default: the input's, else `default`. */
  permissionMode?: string;
  /**
   * The host's sink (the decision log is one): called once per dispatch, after reduction and
   * before the result is returned; a dispatch that matched nothing too, with no runs. Must not
   * throw; a throw, and the rejection of a promise it returns, are ignored (callLog).
   */
  log?: (record: DispatchRecord) => void;
  /**
   * What the host cannot run as consented (docs/reference/rules/engine.md#fail-closed): the
   * entries for the dispatched event give its blocking answer, or a `systemMessage`
   * (fail-closed.ts), whether or not any handler matched.
   */
  failClosed?: readonly FailClosed[];
  /** D8, M3: what the host shows of handlers' output that others do not (host-display.ts). */
  display?: HostDisplay;
  /**
   * The host's last word on a dispatch whose handlers ran (a session's check of a failed
   * handler's plugin, engine.md B2): called with the result, fail-closed entries applied, and the
   * Stop state of the payload; what it resolves to is the result, and what `log` records.
   */
  settle?: (result: DispatchResult, stop: FailClosedOptions) => Promise<DispatchResult>;
}

/** One dispatch, as its log sees it. */
export interface DispatchRecord {
  event: HookEventName;
  /** Epoch milliseconds when the handlers were started (when matching ended, if none matched). */
  startedAt: number;
  /**
   * The payload's `session_id`; null for a dispatch that matched nothing and was given none (no
   * payload was built, so no id was made up).
   */
  sessionId: string | null;
  /** The payload handlers were given (X2); for a dispatch that matched nothing, its input. */
  payload: Readonly<Record<string, unknown>>;
  /** In configuration order, with their output; empty when nothing matched. */
  runs: readonly HandlerRun[];
  /**
   * Each run's own decision, before reduction (run-decision.ts), in the runs' order: read from
   * the parse reduction read, not parsed again.
   */
  decisions: readonly (LoggedDecision | null)[];
  result: DispatchResult;
  /** DispatchOptions.notes, when the host gave some. */
  notes?: readonly ResultDiagnostic[];
}

/** A string field of an event's input, if it has one. */
export function stringField(
  input: Readonly<Record<string, unknown>>,
  key: string,
): string | undefined {
  const value = Object.hasOwn(input, key) ? input[key] : undefined;
  return typeof value === 'string' ? value : undefined;
}

/**
 * Calls the host's sink (DispatchOptions.log); the caller ignores a throw. The rejection of a
 * sink that returns a promise (an async function) is ignored here: it would otherwise reach the
 * host as an unhandled rejection.
 */
export function callLog(log: NonNullable<DispatchOptions['log']>, record: DispatchRecord): void {
  const returned: unknown = log(record);
  if (returned instanceof Promise) returned.catch(() => {});
}
