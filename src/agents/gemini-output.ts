import { GENERIC_BLOCK_REASON } from '../engine/generic-block-reason.js';
import type { DispatchResult, ResultDiagnostic } from '../engine/types.js';
import { clip } from '../text/clip.js';
import type { WireAnswer } from './agent.js';
import { diagnosticLines } from './diagnostic-lines.js';
import { geminiEventOf } from './gemini-names.js';

/**
 * A reduced result as one Gemini CLI hook output (docs/hooks/reference.md of
 * github:google-gemini/gemini-cli; read by `DefaultHookOutput` in packages/core/src/hooks/types.ts
 * and its callers): exit 0 with one JSON object on stdout, always, since on an empty stdout Gemini
 * CLI would read stderr as a plain-text output (`textToParse = stdout.trim() || stderr.trim()` in
 * packages/core/src/hooks/hookRunner.ts). Diagnostics go to stderr, one line each.
 *
 * - `systemMessage` on every event; `continue: false` with `stopReason` where Gemini CLI reads flow
 *   control (BeforeTool, AfterTool, AfterAgent; it ignores it on the lifecycle events).
 * - PreToolUse (BeforeTool): the permission as `decision` `deny` (its `reason` is what the model
 *   gets: "Tool execution blocked: <reason>"), `ask` (its reason also in `systemMessage`, which
 *   the user asked sees) or `allow`.
 * - PostToolUse and PostToolUseFailure (AfterTool): feedback and context as
 *   `hookSpecificOutput.additionalContext`, which Gemini CLI appends to the tool result (its
 *   `decision: "deny"` would replace the result, which a Claude Code block does not do).
 * - UserPromptSubmit (BeforeAgent): a block as `decision: "deny"` with the stop reason (the turn is
 *   not run and the prompt is dropped, as Claude Code drops a blocked prompt); context as
 *   `additionalContext`.
 * - Stop (AfterAgent): a continuation as `decision: "deny"` with the feedback (the generic block
 *   reason when it is blank), which Gemini CLI sends back as the next prompt.
 * - SessionStart: context as `additionalContext`.
 * - PreCompact (PreCompress) and the lifecycle events: Gemini CLI reads no flow control there
 *   ("Advisory Only": it cannot block compression nor stop the session), so a stop (on PreCompact
 *   also the one the engine makes of a block) is told instead (unappliedStop), never dropped
 *   silently.
 */
export function encodeGeminiOutput(result: DispatchResult): WireAnswer {
  const event = result.event;
  const out: Record<string, unknown> = {};
  const specific: Record<string, unknown> = {};
  const flow = FLOW_EVENTS.includes(event);
  if (!result.continue && flow) {
    out['continue'] = false;
    if (result.stopReason !== null) out['stopReason'] = result.stopReason;
  }
  const messages = [...result.systemMessages];
  const unblocked = unappliedStop(result);
  if (unblocked !== null) messages.push(`hookpm: ${unblocked.message}`);
  if (event === 'PreToolUse' && result.permission !== null) {
    const { decision, reason } = result.permission;
    out['decision'] = decision;
    if (reason !== null) out['reason'] = reason;
    // Gemini CLI shows an ask's `reason` to nobody: the user asked sees the systemMessage, where
    // Claude Code shows them the reason.
    if (decision === 'ask' && reason !== null && !messages.includes(reason)) messages.push(reason);
  }
  if (messages.length > 0) out['systemMessage'] = messages.join('\n');
  if (event === 'UserPromptSubmit' && !result.continue) {
    out['decision'] = 'deny';
    out['reason'] = result.stopReason ?? 'Blocked by hook';
  }
  if (event === 'Stop' && result.continueLoop && result.continue) {
    out['decision'] = 'deny';
    // A blank reason would reach the model as Gemini CLI's "No reason provided": the generic
    // reason an exit 2 without stderr gets (K2), as under Codex.
    const feedback = result.feedback.join('\n');
    out['reason'] = feedback.trim() === '' ? GENERIC_BLOCK_REASON : feedback;
  }
  const context =
    event === 'PostToolUse' || event === 'PostToolUseFailure'
      ? [...result.feedback, ...result.context]
      : ['UserPromptSubmit', 'SessionStart'].includes(event)
        ? result.context
        : [];
  if (context.length > 0) specific['additionalContext'] = context.join('\n');
  if (Object.keys(specific).length > 0)
    out['hookSpecificOutput'] = { hookEventName: geminiEventOf(event), ...specific };
  return {
    exitCode: 0,
    stdout: `${JSON.stringify(out)}\n`,
    stderr: diagnosticLines(
      unblocked === null ? result.diagnostics : [...result.diagnostics, unblocked],
    ),
  };
}

/**
 * cli.md W3: a stop Gemini CLI cannot apply (a handler's `continue: false`, and on PreCompact the
 * stop the engine makes of exit 2 or `decision: "block"`): on its lifecycle events (SessionStart,
 * SessionEnd, Notification) and PreCompress, which read no flow control ("Advisory Only"). It is
 * the `unsupported_block` warning that an event which cannot be blocked gives (engine.md#events),
 * its text also for the user in `systemMessage` (Gemini CLI shows nobody the stderr of a hook that
 * exited 0). Null when nothing stopped, or where Gemini CLI applies the stop.
 */
function unappliedStop(result: DispatchResult): ResultDiagnostic | null {
  const event = result.event;
  if (result.continue || FLOW_EVENTS.includes(event) || event === 'UserPromptSubmit') return null;
  const reason = result.stopReason?.trim() ?? '';
  const said = reason === '' ? '' : `: ${clip(reason)}`;
  const what =
    event === 'PreCompact'
      ? 'block PreCompress; the block'
      : `stop the session on ${geminiEventOf(event)}; the stop`;
  const message = `Gemini CLI cannot ${what} is ignored${said}`;
  return { code: 'unsupported_block', severity: 'warning', message };
}

/** The events where Gemini CLI reads `continue: false` (BeforeTool, AfterTool, AfterAgent). */
const FLOW_EVENTS: readonly string[] = ['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'Stop'];
