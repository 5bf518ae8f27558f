import { failedClosedDiagnostic } from '../engine/fail-closed.js';
import { noDecision } from '../engine/no-decision.js';
import { failedRunBlock } from '../engine/parse-output.js';
import { runSummary } from '../engine/run-summary.js';
import type { DispatchResult, HandlerRun, ResultDiagnostic } from '../engine/types.js';
import { EVENTS, type ClaudeCodeEventName, type HookEventName } from '../hooks/events.js';
import { blocksOnFailure, type FailClosed } from '../hooks/fail-closed-entry.js';
import { isPlainObject } from '../json/describe-value.js';
import type { WireAnswer } from './agent.js';
import { diagnosticLines } from './diagnostic-lines.js';
import { failureNotices } from './failure-notices.js';
import { runProblems } from './run-problems.js';

/**
 * plugins.md G2: the one answer `hookpm wire claude` gives for one of Claude Code's own events,
 * made of the runs of every plugin handler that matched, so that Claude Code, reading it as one
 * hook's answer, does what it would have done with each handler run by itself, after what cannot
 * run as consented failed closed (ClaudeCodeAnswerInput's `failClosed`):
 *
 * - exit 2 of any handler, on an event where exit 2 blocks (EVENTS' blockPolicy other than
 *   `none`), is the answer: exit 2 with the stderr of each such handler, one after the other;
 * - else exit 0, with the JSON outputs merged: `continue: false` (the first `stopReason`),
 *   `decision: "block"` (the reasons joined), `suppressOutput` if any asks, `systemMessage`s
 *   joined, and in `hookSpecificOutput` the `additionalContext`s joined, the most restrictive
 *   `permissionDecision` (deny, then ask, then allow) with its reason, `watchPaths` united,
 *   `retry` if any asks, every other key from the first handler that gave it;
 * - plain stdout (not a JSON object) is joined and given as it is when no handler wrote JSON;
 *   WorktreeCreate takes the first handler's alone (a worktree's path);
 * - WorktreeCreate fails (exit 1) when no handler succeeded, as its handler's failure does there.
 *
 * Other failures (a timeout, exit 1) are non-blocking errors in Claude Code: they go to stderr as
 * hookpm diagnostics, which Claude Code does not show on exit 0; but where what cannot run fails
 * closed (blocksOnFailure), the failure of a handler that declares `onFailure: "block"` (engine.md
 * X9), or cannot be confined (Z6), is an exit 2 with its reason, as Claude Code blocks on it.
 */
export interface ClaudeCodeAnswer {
  answer: WireAnswer;
  /** The same answer as a dispatch result, for the decision log. */
  result: DispatchResult;
}

/** What an event's answer is made of besides its runs. */
export interface ClaudeCodeAnswerInput {
  snapshotId: string;
  /** Diagnostics told first (the `cwd_unusable` note, the plugins left out as tampered). */
  notes?: readonly ResultDiagnostic[];
  /**
   * What fails closed on the event (docs/reference/rules/engine.md#fail-closed), those that fail
   * open marked `open`. Where blocksOnFailure holds, the entries not `open` are an exit 2 whose
   * stderr starts with their reasons (then any blocking handler's); every other entry is a
   * `systemMessage`, first among those merged, or only its diagnostic when the answer is plain
   * stdout (WorktreeCreate's path is never made JSON). Each adds a `failed_closed` diagnostic.
   */
  failClosed?: readonly FailClosed[];
}

export function answerClaudeCodeEvent(
  event: ClaudeCodeEventName,
  runs: readonly HandlerRun[],
  input: ClaudeCodeAnswerInput,
): ClaudeCodeAnswer {
  const { snapshotId, notes = [], failClosed = [] } = input;
  const result = emptyResult(event, snapshotId, runs, notes);
  const blocking = EVENTS[event].blockPolicy !== 'none';
  const problems = runs.flatMap((run) => runProblems(run, blocking));
  const diagnostics = [...notes, ...failClosed.map(failedClosedDiagnostic), ...problems];
  result.diagnostics = diagnostics;
  const stderr = diagnosticLines(diagnostics);
  const closed = blocksOnFailure(event) ? failClosed.filter((e) => e.open !== true) : [];
  const told = [
    ...failClosed.filter((e) => !closed.includes(e)).map((e) => e.reason),
    ...failureNotices(problems),
  ];
  // Each exit 2 where it blocks, and each failure that blocks (engine.md X9, Z6) where what fails
  // closed does, in configuration order.
  const blocked = runs.flatMap((run) => {
    if (blocking && run.exitCode === 2) return [run.stderr.replace(/\n$/, '')];
    const failed = blocksOnFailure(event) ? failedRunBlock(run) : null;
    return failed === null ? [] : [failed];
  });
  if (closed.length > 0 || blocked.length > 0) {
    const reason = [...closed.map((e) => e.reason), ...blocked].join('\n');
    result.feedback.push(reason);
    return { answer: { exitCode: 2, stdout: '', stderr: `${reason}\n` }, result };
  }
  const ok = runs.filter((run) => run.exitCode === 0);
  if (event === 'WorktreeCreate' && ok.length === 0)
    return { answer: { exitCode: 1, stdout: '', stderr }, result };
  const merged = withMessages(mergeOutputs(event, ok), told);
  if (merged.text !== null) result.context.push(merged.text);
  readBack(merged.json, result);
  const stdout =
    merged.json !== null
      ? `${JSON.stringify(merged.json)}\n`
      : merged.text === null
        ? ''
        : `${merged.text}\n`;
  return { answer: { exitCode: 0, stdout, stderr }, result };
}

interface Merged {
  json: Record<string, unknown> | null;
  text: string | null;
}

const PERMISSION_RANK: Readonly<Record<string, number>> = { deny: 3, ask: 2, allow: 1 };

function mergeOutputs(event: ClaudeCodeEventName, runs: readonly HandlerRun[]): Merged {
  const texts: string[] = [];
  let json: Record<string, unknown> | null = null;
  const specific: Record<string, unknown> = {};
  const contexts: string[] = [];
  const messages: string[] = [];
  const reasons: string[] = [];
  for (const run of runs) {
    const out = jsonOutput(run.stdout);
    if (out === null) {
      const text = run.stdout.replace(/\n$/, '');
      if (text.trim() !== '') texts.push(text);
      continue;
    }
    json ??= {};
    for (const [key, value] of Object.entries(out)) {
      if (key === 'hookSpecificOutput' && isPlainObject(value))
        mergeSpecific(specific, value, contexts);
      else if (key === 'systemMessage' && typeof value === 'string') messages.push(value);
      else if (key === 'decision' && value === 'block') {
        json['decision'] = 'block';
        if (typeof out['reason'] === 'string') reasons.push(out['reason']);
      } else if (key === 'continue' && value === false) {
        json['continue'] = false;
        if (json['stopReason'] === undefined && typeof out['stopReason'] === 'string')
          json['stopReason'] = out['stopReason'];
      } else if (key === 'suppressOutput' && value === true) json['suppressOutput'] = true;
      else if (!['reason', 'stopReason', 'continue', 'decision', 'suppressOutput'].includes(key))
        if (!Object.hasOwn(json, key)) json[key] = value;
    }
  }
  if (json === null) {
    if (texts.length === 0) return { json: null, text: null };
    return { json: null, text: event === 'WorktreeCreate' ? texts[0]! : texts.join('\n') };
  }
  if (reasons.length > 0) json['reason'] = reasons.join('\n');
  if (messages.length > 0) json['systemMessage'] = messages.join('\n');
  if (contexts.length > 0) specific['additionalContext'] = contexts.join('\n');
  if (Object.keys(specific).length > 0)
    json['hookSpecificOutput'] = { ...specific, hookEventName: event };
  return { json, text: null };
}

function mergeSpecific(
  into: Record<string, unknown>,
  from: Record<string, unknown>,
  contexts: string[],
): void {
  for (const [key, value] of Object.entries(from)) {
    if (key === 'hookEventName') continue;
    if (key === 'additionalContext') {
      if (typeof value === 'string') contexts.push(value);
    } else if (key === 'permissionDecision' && typeof value === 'string') {
      const rank = PERMISSION_RANK[value] ?? 0;
      const held = PERMISSION_RANK[String(into['permissionDecision'])] ?? 0;
      if (rank > held) {
        into['permissionDecision'] = value;
        if (typeof from['permissionDecisionReason'] === 'string')
          into['permissionDecisionReason'] = from['permissionDecisionReason'];
        else delete into['permissionDecisionReason'];
      }
    } else if (key === 'permissionDecisionReason') continue;
    else if (key === 'watchPaths' && Array.isArray(value)) {
      const held = Array.isArray(into['watchPaths']) ? (into['watchPaths'] as unknown[]) : [];
      into['watchPaths'] = [...new Set([...held, ...value])];
    } else if (key === 'retry') {
      if (value === true || into['retry'] === undefined) into['retry'] = value;
    } else if (!Object.hasOwn(into, key)) into[key] = value;
  }
}

/**
 * `merged` with `messages` before its own `systemMessage`; plain stdout stays as it is (the
 * messages are then told by their diagnostics alone).
 */
function withMessages(merged: Merged, messages: readonly string[]): Merged {
  if (messages.length === 0 || merged.text !== null) return merged;
  const json = { ...merged.json };
  const own = json['systemMessage'];
  json['systemMessage'] = [...messages, ...(typeof own === 'string' ? [own] : [])].join('\n');
  return { json, text: null };
}

/** A stdout that is one JSON object (leading and trailing whitespace allowed); else null. */
function jsonOutput(stdout: string): Record<string, unknown> | null {
  const text = stdout.trim();
  if (!text.startsWith('{')) return null;
  try {
    const value: unknown = JSON.parse(text);
    return isPlainObject(value) ? value : null;
  } catch {
    return null;
  }
}

/** What the merged JSON says, in the result's words (for the decision log). */
function readBack(json: Record<string, unknown> | null, result: DispatchResult): void {
  if (json === null) return;
  if (json['continue'] === false) {
    result.continue = false;
    result.stopReason = typeof json['stopReason'] === 'string' ? json['stopReason'] : null;
  }
  if (typeof json['systemMessage'] === 'string') result.systemMessages.push(json['systemMessage']);
  if (typeof json['reason'] === 'string') result.feedback.push(json['reason']);
  const specific = json['hookSpecificOutput'];
  if (!isPlainObject(specific)) return;
  if (typeof specific['additionalContext'] === 'string')
    result.context.push(specific['additionalContext']);
  const decision = specific['permissionDecision'];
  if (decision === 'allow' || decision === 'ask' || decision === 'deny') {
    const reason = specific['permissionDecisionReason'];
    result.permission = {
      decision,
      reason: typeof reason === 'string' ? reason : null,
      interrupt: false,
    };
  }
}

/** A result with the runs and nothing decided, to fill in (and for the decision log). */
export function emptyResult(
  event: HookEventName,
  snapshotId: string,
  runs: readonly HandlerRun[],
  notes: readonly ResultDiagnostic[],
): DispatchResult {
  return { ...noDecision(event, snapshotId), diagnostics: [...notes], runs: runs.map(runSummary) };
}

/**
 * plugins.md G3: the answer of `wire claude --background`, the link entry Claude Code runs in the
 * background. A background handler that asked for `asyncRewake` and exited 2 wakes the model:
 * the answer is exit 2 with, per such handler, its `rewakeMessage` (when given) and its stderr
 * (else its stdout), which Claude Code gives the model as the link entry's output (the entry has
 * `asyncRewake: true`). Anything else is exit 0 and nothing on stdout: Claude Code shows no
 * background output; the decision log keeps each run's. `input` is as for answerClaudeCodeEvent,
 * but what fails closed only adds its `failed_closed` diagnostic: a background handler cannot
 * block, so one that cannot run turns no block into an allow, and waking the model for it would
 * put hookpm's trouble into the conversation at every event (docs/design/decisions.md). The
 * diagnostics go to stderr on exit 0, as on the foreground entry.
 */
export function answerBackground(
  event: HookEventName,
  runs: readonly HandlerRun[],
  input: ClaudeCodeAnswerInput,
): ClaudeCodeAnswer {
  const { snapshotId, notes = [], failClosed = [] } = input;
  const result = emptyResult(event, snapshotId, runs, notes);
  result.diagnostics = [
    ...notes,
    ...failClosed.map(failedClosedDiagnostic),
    ...runs.flatMap((run) => runProblems(run)),
  ];
  const woke = runs.filter((run) => run.handler.background?.rewake === true && run.exitCode === 2);
  if (woke.length === 0) {
    return {
      answer: { exitCode: 0, stdout: '', stderr: diagnosticLines(result.diagnostics) },
      result,
    };
  }
  const texts = woke.map((run) => {
    const said = (run.stderr.trim() === '' ? run.stdout : run.stderr).replace(/\n$/, '');
    const prefix = run.handler.background?.message;
    return prefix === undefined ? said : `${prefix}\n${said}`;
  });
  result.feedback.push(...texts);
  return { answer: { exitCode: 2, stdout: '', stderr: `${texts.join('\n')}\n` }, result };
}
