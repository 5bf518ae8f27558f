import type { DispatchResult, PermissionResult } from '../engine/types.js';

/** The deny reason Codex gets when no plugin gave one: Codex drops a deny without a reason. */
export const CODEX_NO_REASON =
  'a hookpm plugin denied this without giving a reason; `hookpm log` shows which';

/**
 * A reduced result as Codex can apply it (cli.md W3). Codex 0.171.0 (`parse_pre_tool_use` in
 * `codex-rs/hooks/src/engine/output_parser.rs` of github:openai/codex) refuses a PreToolUse
 * output with `continue: false` or `stopReason`, or a `permissionDecision: "deny"` without a
 * non-empty reason: it marks the hook failed and runs the tool. So there a stop is a deny with the
 * stop reason, and a deny always has a reason.
 */
export function asCodexDecides(result: DispatchResult): DispatchResult {
  if (result.event !== 'PreToolUse') return result;
  const given = result.permission;
  const denied = given?.decision === 'deny' ? given.reason : null;
  const stopped = result.continue ? null : result.stopReason;
  const permission =
    given?.decision === 'deny' || !result.continue
      ? deny([denied, stopped].find(hasText) ?? CODEX_NO_REASON)
      : given;
  return { ...result, continue: true, stopReason: null, permission };
}

function hasText(reason: string | null): reason is string {
  return reason !== null && reason.trim() !== '';
}

function deny(reason: string): PermissionResult {
  return { decision: 'deny', reason, interrupt: false };
}
