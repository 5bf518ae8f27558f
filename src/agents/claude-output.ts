import type { DispatchResult } from '../engine/types.js';
import { EVENTS, type HookEventName } from '../hooks/events.js';
import type { WireAnswer } from './agent.js';
import { failureNotices } from './failure-notices.js';
import { diagnosticLines } from './diagnostic-lines.js';
import { fitAnswer } from './fit-answer.js';

/** How an agent that reads Claude Code's hook output differs from Claude Code itself. */
export interface ClaudeOutputDialect {
  /** UserPromptSubmit's `suppressOriginalPrompt` (a Deep Agents Code key; Claude Code has none). */
  suppressOriginalPrompt: boolean;
  /**
   * SubagentStop context (docs/reference/rules/engine.md#events: a block there is kept as context):
   * Claude Code reads it back as `decision: "block"` with the text as reason, which keeps the
   * subagent going with that instruction; Deep Agents Code reads `additionalContext`.
   */
  subagentStopContext: 'block' | 'additionalContext';
  /** D8: the allowed terminal sequences, joined, as the one `terminalSequence` (Deep Agents Code). */
  terminalSequence?: true;
  /**
   * The events whose stop (engine.md#events: a block there stops) is answered `decision: "block"`
   * with the stop reason as `reason`, not `continue: false`. Claude Code 2.1.332 erases a prompt
   * blocked so from the conversation, where `continue: false` keeps it for the model's next turn,
   * and blocks compaction so (its changelog: exit 2 or `decision: "block"`); Deep Agents Code
   * reads `continue: false`.
   */
  stopAsBlock: readonly HookEventName[];
  /**
   * Handlers that failed without blocking are told in `systemMessage` too (failure-notices.ts), as
   * the agent shows its own hooks' errors to its user (Claude Code).
   */
  failuresShown?: true;
  /**
   * The bytes of a handler's stdout the agent reads: a longer answer is cut to fit, its texts
   * first and its decision never (ANSWER_CUT_ORDER).
   */
  maxAnswerBytes?: number;
}

/**
 * What is cut from an answer over `maxAnswerBytes`, least needed first: a terminal sequence (whole,
 * as a cut one is refused), messages to the user, context for the model, feedback, then the
 * reasons of the decision, which keep a prefix.
 */
const ANSWER_CUT_ORDER = [
  ['terminalSequence'],
  ['systemMessage'],
  ['hookSpecificOutput', 'additionalContext'],
  ['reason'],
  ['hookSpecificOutput', 'permissionDecisionReason'],
  ['hookSpecificOutput', 'decision', 'message'],
  ['stopReason'],
] as const;

/**
 * A reduced result (docs/reference/rules/cli.md#json-shapes) as one hook output in the format of
 * engine.md L1-L2, which Claude Code and Deep Agents Code read: an agent that reduces this single
 * output gets the decision hookpm reduced from all of its plugins' outputs. Exit 0 always, since
 * the decision is in the JSON; error and warning diagnostics go to stderr, one line each.
 */
export function encodeClaudeOutput(
  result: DispatchResult,
  dialect: ClaudeOutputDialect,
): WireAnswer {
  const out: Record<string, unknown> = {};
  const specific: Record<string, unknown> = {};
  const event = result.event;
  if (!result.continue && dialect.stopAsBlock.includes(event)) {
    out['decision'] = 'block';
    if (result.stopReason !== null) out['reason'] = result.stopReason;
  } else if (!result.continue) {
    out['continue'] = false;
    if (result.stopReason !== null) out['stopReason'] = result.stopReason;
  }
  const messages = [
    ...result.systemMessages,
    ...(dialect.failuresShown === true ? failureNotices(result.diagnostics) : []),
  ];
  if (messages.length > 0) out['systemMessage'] = messages.join('\n');
  const permission = result.permission;
  if (permission !== null && event === 'PreToolUse') {
    specific['permissionDecision'] = permission.decision;
    if (permission.reason !== null) specific['permissionDecisionReason'] = permission.reason;
  }
  if (permission !== null && event === 'PermissionRequest' && permission.decision !== 'ask') {
    const decision: Record<string, unknown> = { behavior: permission.decision };
    if (permission.decision === 'deny') {
      if (permission.reason !== null) decision['message'] = permission.reason;
      if (permission.interrupt) decision['interrupt'] = true;
    }
    specific['decision'] = decision;
  }
  if (result.context.length > 0) {
    const text = result.context.join('\n');
    if (event === 'SubagentStop' && dialect.subagentStopContext === 'block') {
      out['decision'] = 'block';
      out['reason'] = text;
    } else if (EVENTS[event].specificKeys?.includes('additionalContext') === true) {
      specific['additionalContext'] = text;
    }
  }
  if (result.feedback.length > 0 && (event === 'PostToolUse' || event === 'PostToolUseFailure')) {
    out['decision'] = 'block';
    out['reason'] = result.feedback.join('\n');
  }
  if (event === 'Stop' && result.continueLoop) {
    out['decision'] = 'block';
    out['reason'] = result.feedback.join('\n');
  }
  if (
    event === 'UserPromptSubmit' &&
    result.suppressOriginalPrompt &&
    dialect.suppressOriginalPrompt
  )
    specific['suppressOriginalPrompt'] = true;
  const sequences = result.terminalSequences ?? [];
  if (dialect.terminalSequence === true && sequences.length > 0)
    out['terminalSequence'] = sequences.join('');
  if (Object.keys(specific).length > 0)
    out['hookSpecificOutput'] = { hookEventName: event, ...specific };
  const max = dialect.maxAnswerBytes;
  const cut = max === undefined ? [] : fitAnswer(out, max, ANSWER_CUT_ORDER, ['terminalSequence']);
  const capped =
    max === undefined || cut.length === 0
      ? ''
      : `hookpm: warning output_capped: the answer was cut to the ${max.toLocaleString('en-US')} bytes the agent reads of it (${cut.join(', ')})\n`;
  return {
    exitCode: 0,
    stdout: Object.keys(out).length === 0 ? '' : `${JSON.stringify(out)}\n`,
    stderr: diagnosticLines(result.diagnostics) + capped,
  };
}
