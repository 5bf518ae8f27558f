import { EVENTS } from '../hooks/events.js';
import { runSummary } from './run-summary.js';
import type { EventName } from '../hooks/events.js';
import type { SnapshotHandler } from '../hooks/types.js';
import { capText } from './cap-text.js';
import { clip } from '../text/clip.js';
import { handlerDiagnostic } from './handler-diagnostic.js';
import { mergePermission } from './merge-permission.js';
import { parseHandlerOutput } from './parse-output.js';
import type { ParsedOutput } from './parse-output.js';
import { settleContinuation } from './stop-continuation.js';
import type { ContinuationRequest } from './stop-continuation.js';
import type { DispatchResult, HandlerRun, PermissionResult } from './types.js';
import type { HostDisplay } from './host-display.js';

export interface ReduceOptions {
  snapshotId: string;
  /** Consecutive Stop continuations so far (O3); 0 for a fresh turn. */
  continuationCount: number;
  /** SubagentStop: the payload's `stop_hook_active`; a block is then ignored (section 1). */
  stopHookActive?: boolean;
  /** D8, M3, SubagentStop: what the host shows of handlers' output or does with it. */
  display?: HostDisplay;
}

type Tally = Omit<DispatchResult, 'event' | 'snapshotId' | 'continueLoop' | 'runs'> & {
  requests: ContinuationRequest[];
  /** M5: the fallback text of the first reasonless block-deny, for a deny left without a reason. */
  genericDenyReason: string | null;
};

/** M7: caps one string bound for the result, reporting `output_capped` for its handler. */
function capped(tally: Tally, handler: SnapshotHandler, field: string, text: string): string {
  const result = capText(text);
  if (result.capped) {
    const message = `${field} cut to 10,000 characters`;
    tally.diagnostics.push(handlerDiagnostic(handler, 'output_capped', 'warning', message));
  }
  return result.text;
}

/** M2: a stop reason from an output with continue:false, or from a BLOCK-policy block. */
function offerStopReason(tally: Tally, handler: SnapshotHandler, reason: string): boolean {
  if (tally.stopReason !== null) return false;
  tally.stopReason = capped(tally, handler, 'stopReason', reason);
  return true;
}

/** M2: the stop reason of an output, which counts only with continue:false. */
function applyStopReason(tally: Tally, handler: SnapshotHandler, out: ParsedOutput): void {
  if (out.stopReason === null) return;
  if (out.continue) {
    const message = 'stopReason ignored: the output did not set continue:false';
    tally.diagnostics.push(handlerDiagnostic(handler, 'ignored_stop_reason', 'warning', message));
  } else if (!offerStopReason(tally, handler, out.stopReason)) {
    const message = 'stopReason not shown: an earlier handler already gave one';
    tally.diagnostics.push(handlerDiagnostic(handler, 'additional_stop_reason', 'info', message));
  }
}

/**
 * Section 1: what a block (exit 2 or `decision:"block"`) means for the event. Returns the denial
 * for DENY-policy events, which the caller ranks with the handler's own decision (M5).
 */
function applyBlock(
  tally: Tally,
  event: EventName,
  handler: SnapshotHandler,
  block: NonNullable<ParsedOutput['block']>,
  opts: ReduceOptions,
): PermissionResult | null {
  const reason = block.reason;
  switch (EVENTS[event].blockPolicy) {
    case 'none': {
      // The reason stays in the message: an agent shows a failed hook's words to its user.
      const said = block.generic === true || reason.trim() === '' ? '' : `: ${clip(reason.trim())}`;
      const message = `${event} cannot be blocked; the block is ignored${said}`;
      tally.diagnostics.push(handlerDiagnostic(handler, 'unsupported_block', 'warning', message));
      return null;
    }
    case 'block':
      tally.continue = false;
      offerStopReason(tally, handler, reason);
      return null;
    case 'deny':
      // M5: a fallback text is no reason given; a later equal deny's reason takes its place.
      if (block.generic !== true) return { decision: 'deny', reason, interrupt: false };
      tally.genericDenyReason ??= reason;
      return { decision: 'deny', reason: null, interrupt: false };
    case 'feedback':
      tally.feedback.push(capped(tally, handler, 'feedback', reason));
      return null;
    case 'continue':
      tally.requests.push({ handler, text: reason });
      return null;
    case 'context':
      if (opts.stopHookActive === true) {
        const message = `block ignored: stop_hook_active is true on ${event}`;
        tally.diagnostics.push(handlerDiagnostic(handler, 'continuation_guard', 'info', message));
      } else {
        tally.context.push(capped(tally, handler, 'context', reason));
      }
      return null;
  }
}

/**
 * Section 1 (SubagentStop): whether context would keep a subagent going again while
 * `stop_hook_active` is true, on a host that continues the subagent with it (HostDisplay).
 */
function continuesSubagent(event: EventName, opts: ReduceOptions): boolean {
  return (
    event === 'SubagentStop' &&
    opts.stopHookActive === true &&
    opts.display?.subagentStopContext === 'continues'
  );
}

/** Folds one handler's parsed output into the tally, in configuration order. */
function applyOutput(tally: Tally, event: EventName, parsed: ParsedRun, opts: ReduceOptions): void {
  const { run, output: out } = parsed;
  const handler = run.handler;
  tally.diagnostics.push(...out.diagnostics);
  if (!out.continue) tally.continue = false; // M1
  applyStopReason(tally, handler, out);
  const shown = !out.suppressOutput || opts.display?.suppressedMessages === 'shown';
  if (out.systemMessage !== null && shown) {
    tally.systemMessages.push(capped(tally, handler, 'systemMessage', out.systemMessage)); // M3
  }
  let permission = out.permission;
  if (out.block !== null) {
    const denial = applyBlock(tally, event, handler, out.block, opts);
    permission = mergePermission(permission, denial);
  }
  const guarded = continuesSubagent(event, opts);
  for (const text of out.context) {
    // O1: on Stop, context is a continuation request, not context for the model.
    if (event === 'Stop') tally.requests.push({ handler, text });
    else if (guarded) {
      const message = `additionalContext ignored: stop_hook_active is true on ${event}`;
      tally.diagnostics.push(handlerDiagnostic(handler, 'continuation_guard', 'info', message));
    } else tally.context.push(capped(tally, handler, 'context', text)); // M4
  }
  if (permission !== null) {
    const reason =
      permission.reason === null
        ? null
        : capped(tally, handler, 'permission reason', permission.reason);
    tally.permission = mergePermission(tally.permission, { ...permission, reason }); // M5
  }
  if (out.suppressOriginalPrompt) tally.suppressOriginalPrompt = true; // M6
  if (out.terminalSequence !== null) {
    if (opts.display?.terminalSequences === 'pass')
      (tally.terminalSequences ??= []).push(out.terminalSequence);
    else {
      const message =
        'terminalSequence is written to the terminal by Deep Agents Code only (hookpm wire deepagents); ignored here';
      tally.diagnostics.push(handlerDiagnostic(handler, 'unsupported_field', 'info', message));
    }
  }
}

/** One handler's run with its output parsed (parse-output.ts), once: reduction and the log read it. */
export interface ParsedRun {
  run: HandlerRun;
  output: ParsedOutput;
}

/** Parses each run's output once, in the runs' order. */
export function parseRuns(event: EventName, runs: readonly HandlerRun[]): ParsedRun[] {
  return runs.map((run) => ({ run, output: parseHandlerOutput(run, event) }));
}

/**
 * Reduces the runs of one dispatch to its result
 * (docs/reference/rules/engine.md#output-and-reduction, #stop-continuations). `runs` must be in
 * configuration order (S3, X1); finish order never matters.
 */
export function reduceResults(
  event: EventName,
  runs: readonly HandlerRun[],
  opts: ReduceOptions,
): DispatchResult {
  return reduceParsed(event, parseRuns(event, runs), opts);
}

/** reduceResults over runs whose outputs are parsed already (parseRuns). */
export function reduceParsed(
  event: EventName,
  parsed: readonly ParsedRun[],
  opts: ReduceOptions,
): DispatchResult {
  const tally: Tally = {
    continue: true,
    stopReason: null,
    systemMessages: [],
    context: [],
    permission: null,
    feedback: [],
    suppressOriginalPrompt: false,
    diagnostics: [],
    requests: [],
    genericDenyReason: null,
  };
  for (const run of parsed) applyOutput(tally, event, run, opts);
  const permission = tally.permission;
  if (permission?.decision === 'deny' && permission.reason === null) {
    tally.permission = { ...permission, reason: tally.genericDenyReason };
  }
  const stop = settleContinuation(tally.requests, {
    continue: tally.continue,
    continuationCount: opts.continuationCount,
  });
  for (const f of stop.feedback) tally.feedback.push(capped(tally, f.handler, 'feedback', f.text));
  tally.diagnostics.push(...stop.diagnostics);
  return {
    event,
    snapshotId: opts.snapshotId,
    continue: tally.continue,
    stopReason: tally.stopReason,
    systemMessages: tally.systemMessages,
    context: tally.context,
    // Only PreToolUse and PermissionRequest produce decisions (deny policy, L2 keys).
    permission: tally.permission,
    feedback: tally.feedback,
    continueLoop: stop.continueLoop,
    suppressOriginalPrompt: tally.suppressOriginalPrompt,
    ...(tally.terminalSequences === undefined
      ? {}
      : { terminalSequences: tally.terminalSequences }),
    diagnostics: tally.diagnostics,
    runs: parsed.map(({ run }) => runSummary(run)),
  };
}
