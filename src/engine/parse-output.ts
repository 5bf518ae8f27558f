import type { DiagnosticCode, Severity } from '../hooks/diagnostic.js';
import { EVENTS } from '../hooks/events.js';
import type { EventName } from '../hooks/events.js';
import { readCutJsonObject } from './cut-json.js';
import { handlerDiagnostic, handlerOwner } from './handler-diagnostic.js';
import { stderrTail } from './stderr-tail.js';
import type { HandlerRun, PermissionResult, ResultDiagnostic } from './types.js';
import { wireOutputReader } from './wire-output-reader.js';
import { GENERIC_BLOCK_REASON } from './generic-block-reason.js';

/**
 * What one handler's run contributes to its event, before reduction (engine.md K1-K3, L1-L3,
 * X6-X8). A run that produced no applicable output has the neutral values: continue true, no
 * block, no context, no permission.
 */
export interface ParsedOutput {
  /** false only when the output said `continue:false` (M1). */
  continue: boolean;
  stopReason: string | null;
  /** Hides only this handler's systemMessage (M3). */
  suppressOutput: boolean;
  systemMessage: string | null;
  /**
   * Exit 2 (K2) or `decision:"block"` (L1); the reason is never empty. `generic` marks a fallback
   * text standing for a reason the handler did not give (M5 passes over it for a given one).
   */
  block: { reason: string; generic?: true } | null;
  /** This handler's plain-stdout context first, then its additionalContext (M4). */
  context: string[];
  /** PreToolUse `permissionDecision` or PermissionRequest `decision`; blocks are not folded in. */
  permission: PermissionResult | null;
  suppressOriginalPrompt: boolean;
  /** D8: an allowed `terminalSequence`, which only Deep Agents Code writes to its terminal. */
  terminalSequence: string | null;
  /** Each names the handler, its origin and plugin. */
  diagnostics: ResultDiagnostic[];
}

function emptyOutput(): ParsedOutput {
  return {
    continue: true,
    stopReason: null,
    suppressOutput: false,
    systemMessage: null,
    block: null,
    context: [],
    permission: null,
    suppressOriginalPrompt: false,
    terminalSequence: null,
    diagnostics: [],
  };
}

/** K1: the whole stdout as one JSON object, or undefined when it is not one. */
function parseJsonObject(text: string): Record<string, unknown> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  return value as Record<string, unknown>;
}

/**
 * L1: whether the first line of `text` is a JSON object with `"async": true`, Claude Code's
 * protocol for a hook that continues in the background.
 */
function startsAsync(text: string): boolean {
  const newline = text.indexOf('\n');
  const first = newline === -1 ? text : text.slice(0, newline);
  if (!first.includes('"async"')) return false;
  return parseJsonObject(first.trim())?.['async'] === true;
}

/** The run facts that end a run without output: X6 timeout, X8 failure, K3 exit codes. */
function failureNote(run: HandlerRun): [DiagnosticCode, Severity, string] | null {
  const timeoutSec = run.handler.timeoutSec;
  if (run.failure !== null) return [run.failure.kind, 'error', run.failure.message];
  if (run.timedOut && run.deadlineCapped !== undefined) {
    const how = run.deadlineCapped === 'ended' ? 'ended' : 'not started';
    const message = `${how} at the host's deadline (under \`hookpm wire\`: the agent's, less a margin), before its own ${timeoutSec}s timeout; no output applied`;
    return ['timeout', 'warning', message];
  }
  if (run.timedOut)
    return ['timeout', 'warning', `timed out after ${timeoutSec}s; no output applied`];
  if (run.handler.legacyStdin !== null) return null;
  if (run.exitCode === null) {
    const how = run.signal === null ? 'without an exit code' : `by signal ${run.signal}`;
    return ['nonzero_exit', 'warning', `terminated ${how}${stderrTail(run.stderr)}`];
  }
  if (run.exitCode !== 0 && run.exitCode !== 2) {
    return ['nonzero_exit', 'warning', `exit code ${run.exitCode}${stderrTail(run.stderr)}`];
  }
  return null;
}

/**
 * X9: the reason of the block that a failure of an `onFailure: "block"` handler stands for. It
 * names hookpm, the handler and its plugin, and what went wrong (the diagnostic's message).
 */
function failureBlockReason(run: HandlerRun, failure: [DiagnosticCode, Severity, string]): string {
  const { handler } = run;
  const owner = handlerOwner(handler);
  return `hookpm: handler ${handler.id} of ${owner} failed (${failure[0]}: ${failure[2]}) and declares onFailure "block"`;
}

/** Z6: the reason of the block a confined handler that could not be confined stands for. */
function confinementBlockReason(run: HandlerRun): string {
  const { handler } = run;
  const owner = handlerOwner(handler);
  return `hookpm fails closed: handler ${handler.id} of ${owner} must run confined, and ${run.failure?.message ?? 'its sandbox cannot be set up'}`;
}

/** X8: the reason of the block a handler the machine had no resources to start stands for. */
function shortageBlockReason(run: HandlerRun): string {
  const { handler } = run;
  const owner = handlerOwner(handler);
  return `hookpm fails closed: handler ${handler.id} of ${owner} did not run: ${run.failure?.message ?? 'the machine ran short'}; close programs or raise the limit (ulimit -n, ulimit -u), then retry`;
}

/**
 * X8, X9, Z6: the reason of the block a failed run stands for, or null when its failure blocks
 * nothing: a handler that declares onFailure "block", and, whatever its onFailure, a confined
 * handler whose sandbox cannot be set up and a handler the machine had no resources to start.
 */
function failureBlock(run: HandlerRun, failure: [DiagnosticCode, Severity, string]): string | null {
  if (run.failure?.kind === 'confinement_unavailable') return confinementBlockReason(run);
  if (run.failure?.shortage === true) return shortageBlockReason(run);
  return run.handler.onFailure === 'block' ? failureBlockReason(run, failure) : null;
}

/**
 * X9, Z6: the reason of the block `run` stands for when it failed (X6, X8, K3) and its failure
 * blocks; null otherwise. Claude Code's own events (plugins.md G2) read it so, as the engine does.
 */
export function failedRunBlock(run: HandlerRun): string | null {
  const failure = failureNote(run);
  return failure === null ? null : failureBlock(run, failure);
}

/**
 * K1 on an event that ignores plain stdout, graded by what the user can do
 * (docs/design/decisions.md#where-the-rules-are-silent): text that starts as JSON was meant as
 * output and is broken (a warning); other text, such as a handler printing `done`, is only noted
 * (info).
 */
function plainStdoutNote(text: string, event: EventName): [Severity, string] {
  if (/^[[{]/.test(text)) return ['warning', `stdout is not one JSON object; ignored on ${event}`];
  return ['info', `plain stdout is not used on ${event} (only a JSON object is read); ignored`];
}

/** K1: exit 0 stdout, either plain text (policy of section 1) or one JSON object (L1-L3). */
function readStdout(run: HandlerRun, event: EventName, out: ParsedOutput): void {
  const note = (code: DiagnosticCode, severity: Severity, message: string) =>
    out.diagnostics.push(handlerDiagnostic(run.handler, code, severity, message));
  const text = run.stdout
    .trim()
    .replace(/^\uFEFF/, '')
    .trim();
  if (text === '') return;
  if (startsAsync(text)) {
    const message =
      'first stdout line is {"async": true} (a hook that would go on in the background): hookpm waited for it and ignores the rest of its output';
    note('unsupported_field', 'info', message);
    return;
  }
  const json = parseJsonObject(text);
  if (json === undefined && run.stdoutTruncated && text.startsWith('{')) {
    readCutOutput(run, event, text, out);
    return;
  }
  if (json === undefined) {
    if (EVENTS[event].plainStdout === 'context') out.context.push(text);
    else note('malformed_json', ...plainStdoutNote(text, event));
    return;
  }
  const { fields, notes } = wireOutputReader()(json, event);
  for (const n of notes) note(n.code, n.severity, n.message);
  if (fields === null) return;
  out.continue = fields.continue;
  out.stopReason = fields.stopReason;
  out.suppressOutput = fields.suppressOutput;
  out.systemMessage = fields.systemMessage;
  out.block = fields.block;
  if (fields.additionalContext !== null) out.context.push(fields.additionalContext);
  out.permission = fields.permission;
  out.suppressOriginalPrompt = fields.suppressOriginalPrompt;
  out.terminalSequence = fields.terminalSequence;
}

/**
 * X7: a JSON object cut at the capture limit. What arrived is read (cut-json.ts), and only what
 * stops something is applied: a block, a deny, a `continue: false`. Anything else it asked for
 * (an allow, context, a message) could have been changed by what was cut, so it is dropped. When
 * nothing that stops can be read, the run is a failure: `stdout_truncated` as an error, which a
 * handler's `onFailure: "block"` turns into a block.
 */
function readCutOutput(run: HandlerRun, event: EventName, text: string, out: ParsedOutput): void {
  const note = (severity: Severity, message: string) =>
    out.diagnostics.push(handlerDiagnostic(run.handler, 'stdout_truncated', severity, message));
  const cut = readCutJsonObject(text);
  const fields = cut === undefined ? null : wireOutputReader()(cut, event).fields;
  const deny = fields?.permission?.decision === 'deny' ? fields.permission : null;
  const stops = fields !== null && (fields.block !== null || deny !== null || !fields.continue);
  if (fields === null || !stops) {
    const message = 'stdout was cut and holds no block or deny that can be read; output dropped';
    note('error', message);
    // X9: the failure of a handler that declares onFailure "block" is a block.
    if (run.handler.onFailure === 'block')
      out.block = { reason: failureBlockReason(run, ['stdout_truncated', 'error', message]) };
    return;
  }
  note('warning', 'stdout was cut: its block or deny is applied, the rest of it is dropped');
  out.block = fields.block;
  out.permission = deny;
  out.continue = fields.continue;
  out.stopReason = fields.continue ? null : fields.stopReason;
}

/**
 * Interprets one handler's run for `event` (engine.md K1-K3, L1-L3, X6-X8). A legacy handler
 * (C4) contributes only its timeout or launch diagnostics: its output and exit code are ignored.
 * A run for which mayHoldJson holds needs loadWireOutputReader resolved first
 * (wire-output-reader.ts).
 */
export function parseHandlerOutput(run: HandlerRun, event: EventName): ParsedOutput {
  const out = emptyOutput();
  const legacy = run.handler.legacyStdin !== null;
  if (!legacy) {
    if (run.stdoutTruncated) {
      const message = 'stdout exceeded 100,000 bytes; the rest was discarded';
      out.diagnostics.push(handlerDiagnostic(run.handler, 'stdout_truncated', 'warning', message));
    }
    if (run.stderrTruncated) {
      const message = 'stderr exceeded 100,000 bytes; the rest was discarded';
      out.diagnostics.push(handlerDiagnostic(run.handler, 'stderr_truncated', 'warning', message));
    }
  }
  const failure = failureNote(run);
  if (failure !== null) {
    out.diagnostics.push(handlerDiagnostic(run.handler, ...failure));
    const reason = failureBlock(run, failure);
    if (reason !== null) out.block = { reason };
    return out;
  }
  if (legacy) return out;
  if (run.exitCode === 2) {
    const reason = run.stderr.trim();
    out.block = reason === '' ? { reason: GENERIC_BLOCK_REASON, generic: true } : { reason };
    return out;
  }
  if (run.exitCode === 0) readStdout(run, event, out);
  return out;
}
