/**
 * hookpm as a library, for hosts that embed the hook engine (an agent, an editor, a test). Load a
 * snapshot once per session (engine.md R1), dispatch events on it, report its diagnostics at start.
 * Importing this module loads no command-line code (commander) and starts nothing.
 *
 * @example
 * const { snapshot, failClosed } = await loadTrustedSnapshot({ cwd, home, flag: false, store });
 * const input = { tool_name: 'Bash', tool_input };
 * const result = await dispatchEvent(snapshot, 'PreToolUse', input, { failClosed });
 * if (result.permission?.decision === 'deny') refuse(result.permission.reason);
 */

/** The one error type, with a stable `code` (E_USAGE, ...), a `hint` and machine `details`. */
export { HookpmError, isHookpmError } from './errors.js';
export type { ErrorCode, ErrorDetails } from './errors.js';

/** The twelve events as data (docs/reference/rules/engine.md#events): matcher field, default timeout, policies. */
export { EVENTS, EVENT_NAMES, isEventName } from './hooks/events.js';
export type { EventName, EventSpec, BlockPolicy, PlainStdoutPolicy } from './hooks/events.js';

/** `{code, message, severity, handler?, origin?, plugin?, path?}` (docs/reference/rules/engine.md#diagnostics). */
export type { Diagnostic, DiagnosticCode, Severity, Origin } from './hooks/diagnostic.js';

/** Validates one parsed hooks document (docs/reference/rules/engine.md#configuration); never throws, reports diagnostics. */
export { parseHooksDocument } from './hooks/parse-document.js';
export type {
  HooksConfig,
  GroupConfig,
  HandlerConfig,
  ParsedDocument,
  SourceDocument,
  PluginBinding,
  SnapshotHandler,
} from './hooks/types.js';

/** Builds the immutable snapshot of validated documents (engine.md R1-R3, S3, E4, F3). */
export { buildSnapshot } from './hooks/snapshot/snapshot.js';
/** The handlers of a snapshot that match one invocation, in configuration order (sections 4-5). */
export { matchHandlers } from './hooks/snapshot/snapshot-match.js';
export type { Snapshot, SnapshotPlugin, BuildSnapshotInput } from './hooks/snapshot/snapshot.js';

/**
 * Reads the project file (when the caller says the workspace is trusted), the user file and the
 * enabled plugins of a store, and builds the snapshot for a directory (engine.md S1-S6).
 */
export { loadSnapshot } from './ops/run/load-snapshot.js';
export type { LoadSnapshotOptions, LoadedSnapshot } from './ops/run/load-snapshot.js';

/**
 * loadSnapshot after resolving workspace trust (docs/reference/rules/engine.md#workspace-trust):
 * headless without `askTrust` (project hooks only with `flag`), interactive with it.
 */
export { loadTrustedSnapshot } from './ops/run/load-trusted-snapshot.js';
export type {
  LoadTrustedSnapshotOptions,
  TrustedSnapshot,
} from './ops/run/load-trusted-snapshot.js';
export type { AskTrust, TrustAnswer, ResolvedTrust } from './ops/run/resolve-trust.js';
export type { ProjectHook, ProjectHooksSummary } from './ops/run/project-hooks-summary.js';

/** Where hookpm keeps its state and plugins (`HOOKPM_HOME`, else the platform directories). */
export { resolveStorePaths } from './store/paths.js';
export type { StorePaths } from './store/store-paths.js';

/** The effective merged hooks of a snapshot, as `hookpm hooks --json` shows them. */
export { describeSnapshot } from './ops/run/list-hooks.js';
export type { HookListing, ListedHandler } from './ops/run/list-hooks.js';

/**
 * Dispatches one event on a snapshot: every matching handler runs at once, the runs are reduced in
 * configuration order to one result (docs/reference/rules/engine.md#running-handlers,
 * #output-and-reduction, #stop-continuations, docs/reference/rules/cli.md#json-shapes).
 */
export { dispatchEvent } from './engine/dispatch.js';
export type { DispatchOptions, DispatchRecord } from './engine/dispatch-options.js';
export type { LoggedDecision } from './ops/steps/decision-log/run-outcome.js';
export type {
  DispatchResult,
  ResultDiagnostic,
  RunSummary,
  PermissionResult,
  PermissionDecision,
} from './engine/types.js';

/**
 * Handler process groups: `installExitCleanup` makes SIGTERM, SIGINT and SIGHUP kill every running
 * handler's group before the host exits; `killAllHandlers` does it now (synchronously).
 */
export { installExitCleanup, killAllHandlers } from './engine/process-groups.js';

/**
 * A long-running session for a working directory, as `hookpm session` runs it
 * (docs/reference/rules/cli.md#session): the snapshot is loaded once (R1); dispatch (concurrent;
 * Stop continuations counted, O3), reload (R4), hooks, close (kills running handlers' process
 * groups).
 */
export { createSession } from './ops/run/session.js';
export type {
  Session,
  SessionOptions,
  SessionReport,
  SessionDispatchOptions,
} from './ops/run/session.js';
