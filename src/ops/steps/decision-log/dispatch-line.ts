import { loggedHookKey } from '../../../plugin/hook-key.js';
import { LOG_LINE_MAX_BYTES } from '../../../store/dispatch-log.js';
import type { DispatchRecord } from '../../../engine/dispatch-options.js';
import { logTime } from './log-time.js';
import { isFailedRun, resultDecision, type LoggedDecision } from './run-outcome.js';

/** One handler's run in a log line. Text fields only with `log.text` on. */
export interface LoggedRun {
  /** The handler's id in its snapshot (`<Event>:<group>:<handler>`): a position, not stable. */
  handler: string;
  /**
   * A plugin hook's key (plugin/hook-key.ts, as `hookpm hooks --json` shows it): stable across
   * installs and updates, so `hookpm log` and `hookpm stats` name the hook by it. Absent for the
   * hooks files' handlers (their ids do not move with plugins: snapshot order S3) and in lines
   * logged before it was.
   */
  key?: string;
  origin: string;
  plugin: string | null;
  exitCode: number | null;
  ms: number;
  timedOut: boolean;
  failed: boolean;
  decision: LoggedDecision | null;
  stdout?: string;
  stderr?: string;
}

/** One line of `<data>/log/dispatch.jsonl` (docs/guides/decision-log.md). */
export interface LoggedDispatch {
  v: 1;
  time: string;
  event: string;
  /** Who dispatched: `run`, `session`, `test`, or `wire:<agent>`. */
  source: string;
  /**
   * Null for a dispatch that matched nothing and was given no session id. The payload's
   * `session_id` is the agent's: one longer than SESSION_MAX_CHARS is kept as that prefix and `…`.
   */
  session: string | null;
  snapshot: string;
  decision: LoggedDecision | null;
  /** Empty for a dispatch that matched no handler (see ranHandlers). */
  runs: LoggedRun[];
  /** With `log.text` on: the payload, and what the result says in words. */
  payload?: unknown;
  text?: { reason: string | null; context: string[]; feedback: string[]; systemMessages: string[] };
  /** Text that did not fit the line was left out. */
  textOmitted?: true;
  /** Runs that did not fit the line, left out from the end. */
  runsOmitted?: number;
  /** What the host noted about the invocation (DispatchOptions.notes: a `cwd` it could not use). */
  notes?: Array<{ code: string; message: string }>;
}

export interface LineOptions {
  source: string;
  text: boolean;
}

/**
 * The most characters of a session id a line holds: a session id comes from the payload, and the
 * line must stay under LOG_LINE_MAX_BYTES whatever the payload holds (an agent's are UUIDs).
 */
export const SESSION_MAX_CHARS = 200;

/** How much of each text field a line holds at most, tried in turn until the line fits. */
const TEXT_CAPS = [1000, 200];

/**
 * The log line of a dispatch (no newline), at most LOG_LINE_MAX_BYTES: text, when on, is cut to
 * fit and else left out (`textOmitted`); a dispatch of very many handlers keeps the runs that fit
 * (`runsOmitted` counts the rest).
 */
export function formatDispatchLine(record: DispatchRecord, opts: LineOptions): string {
  const base = baseLine(record, opts.source);
  if (opts.text) {
    for (const cap of TEXT_CAPS) {
      const line = JSON.stringify(withText(base, record, cap));
      if (Buffer.byteLength(line) <= LOG_LINE_MAX_BYTES) return line;
    }
    base.textOmitted = true;
  }
  let line = JSON.stringify(base);
  if (Buffer.byteLength(line) <= LOG_LINE_MAX_BYTES) return line;
  const runs = base.runs;
  for (let keep = runs.length - 1; keep >= 0; keep -= 1) {
    line = JSON.stringify({ ...base, runs: runs.slice(0, keep), runsOmitted: runs.length - keep });
    if (Buffer.byteLength(line) <= LOG_LINE_MAX_BYTES) return line;
  }
  return line;
}

function baseLine(record: DispatchRecord, source: string): LoggedDispatch {
  const { event, result } = record;
  return {
    v: 1,
    time: logTime(record.startedAt),
    event,
    source,
    session: boundedSession(record.sessionId),
    snapshot: result.snapshotId,
    decision: resultDecision(result),
    runs: record.runs.map((run, i) => ({
      handler: run.handler.id,
      ...(run.handler.plugin === null ? {} : { key: loggedHookKey(run.handler) }),
      origin: run.handler.origin,
      plugin: run.handler.plugin,
      exitCode: run.exitCode,
      ms: Math.round(run.durationMs * 100) / 100,
      timedOut: run.timedOut,
      failed: isFailedRun(run),
      decision: record.decisions[i] ?? null,
    })),
    ...(record.notes === undefined || record.notes.length === 0
      ? {}
      : { notes: record.notes.map((n) => ({ code: n.code, message: n.message })) }),
  };
}

/** `text` as a line holds it: at most `cap` characters, then `…` when it was longer. */
function cut(text: string, cap: number): string {
  return text.length > cap ? `${text.slice(0, cap)}…` : text;
}

function boundedSession(id: string | null): string | null {
  return id === null ? null : cut(id, SESSION_MAX_CHARS);
}

function withText(base: LoggedDispatch, record: DispatchRecord, cap: number): LoggedDispatch {
  const { result } = record;
  const payload = JSON.stringify(record.payload);
  return {
    ...base,
    payload: payload.length > cap ? cut(payload, cap) : record.payload,
    text: {
      reason:
        (result.permission?.reason ?? result.stopReason) === null
          ? null
          : cut((result.permission?.reason ?? result.stopReason) as string, cap),
      context: result.context.map(cut),
      feedback: result.feedback.map(cut),
      systemMessages: result.systemMessages.map(cut),
    },
    runs: base.runs.map((run, i) => ({
      ...run,
      stdout: cut(record.runs[i]!.stdout, cap),
      stderr: cut(record.runs[i]!.stderr, cap),
    })),
  };
}

/** Whether a logged dispatch ran handlers: it lists runs, or left some out of a full line. */
export function ranHandlers(entry: Pick<LoggedDispatch, 'runs' | 'runsOmitted'>): boolean {
  return entry.runs.length > 0 || (entry.runsOmitted ?? 0) > 0;
}
