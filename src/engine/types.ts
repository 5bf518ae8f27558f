import type { Diagnostic, Origin } from '../hooks/diagnostic.js';
import type { HookEventName } from '../hooks/events.js';
import type { SnapshotHandler } from '../hooks/types.js';

/** The facts of one handler's run, as the runner saw them; reduction interprets them. */
export interface HandlerRun {
  handler: SnapshotHandler;
  /** null when the process did not exit by itself (timeout, signal, launch failure). */
  exitCode: number | null;
  signal: string | null;
  /** Captured text, at most 100,000 bytes each (X7). */
  stdout: string;
  stderr: string;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  timedOut: boolean;
  /**
   * The timeout was the host's deadline (DispatchOptions.deadline), which came before the
   * handler's own: the handler was ended then, or not started at all.
   */
  deadlineCapped?: 'ended' | 'not_started';
  /**
   * B8: the host stopped the dispatch (its signal aborted) while the handler still ran: whatever it
   * did after (a SIGTERM trap that exits 0), it did not decide.
   */
  stopped?: true;
  /**
   * The handler never ran: a launch failure (X8), a blank command / empty argv, or its sandbox
   * could not be set up (security.md Z6: it never runs unconfined instead).
   */
  failure: {
    kind: 'launch_failed' | 'invalid_command' | 'confinement_unavailable';
    message: string;
    /**
     * X8: the launch failed for want of the machine's resources (open files, processes, memory),
     * not for anything of the handler's: a block, as Z6's failure is, whatever its onFailure.
     */
    shortage?: true;
  } | null;
  durationMs: number;
}

export type PermissionDecision = 'allow' | 'ask' | 'deny';

export interface PermissionResult {
  decision: PermissionDecision;
  reason: string | null;
  interrupt: boolean;
}

/** A diagnostic of a dispatch result (docs/reference/rules/cli.md#json-shapes): origin and plugin are always present. */
export interface ResultDiagnostic extends Diagnostic {
  origin?: Origin;
  plugin?: string;
}

export interface RunSummary {
  handler: string;
  origin: Origin;
  plugin: string | null;
  exitCode: number | null;
  timedOut: boolean;
  durationMs: number;
}

/** The result of one dispatched event: `hookpm run --json` and the session's `dispatch` (cli.md 3). */
export interface DispatchResult {
  /** An engine event; one of Claude Code's own only under `wire claude` (plugins.md G1). */
  event: HookEventName;
  snapshotId: string;
  continue: boolean;
  stopReason: string | null;
  systemMessages: string[];
  context: string[];
  permission: PermissionResult | null;
  feedback: string[];
  continueLoop: boolean;
  suppressOriginalPrompt: boolean;
  /**
   * D8: the allowed `terminalSequence` outputs, in configuration order; present, and non-empty,
   * only where the host writes them to its terminal (`wire deepagents`).
   */
  terminalSequences?: string[];
  diagnostics: ResultDiagnostic[];
  runs: RunSummary[];
}
