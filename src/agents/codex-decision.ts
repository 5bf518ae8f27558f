import type { DispatchResult, PermissionResult } from '../engine/types.js';

/** The deny reason Codex gets when no plugin gave one: Codex drops a deny without a reason. */
export const CODEX_NO_REASON =
  'a hookpm plugin denied this without giving a reason; `hookpm log` shows which';

/** An ask without a reason, and what Codex is told of any ask. */
const CODEX_ASK = 'a hookpm plugin asks you to confirm this';
export const CODEX_CANNOT_ASK =
  'Codex cannot ask for a confirmation from a hook, so hookpm denies it (run it yourself if you confirm)';

/**
 * A reduced result as Codex can apply it (cli.md W3). Codex 0.171.0 (`parse_pre_tool_use` in
 * `codex-rs/hooks/src/engine/output_parser.rs` of github:openai/codex) refuses a PreToolUse
 * output with `continue: false` or `stopReason`, or a `permissionDecision: "deny"` without a
 * non-empty reason, `permissionDecision: "ask"`, or `"allow"` without `updatedInput`: it marks the
 * hook failed, applies nothing of the output, and runs the tool as its own approval policy says.
 * So there a stop is a deny with the stop reason, a deny always has a reason, an ask (which Codex
 * cannot put to its user from a hook) is a deny that says so, and an allow is left out (the tool
 * then goes through Codex's own approval, as it would with no hook).
 */
export function asCodexDecides(result: DispatchResult): DispatchResult {
  if (result.event === 'PermissionRequest') return asCodexPermissionRequest(result);
  if (result.event !== 'PreToolUse') return result;
  const given = result.permission;
  const denied = given?.decision === 'deny' ? given.reason : null;
  const stopped = result.continue ? null : result.stopReason;
  const permission =
    given?.decision === 'deny' || !result.continue
      ? deny([denied, stopped].find(hasText) ?? CODEX_NO_REASON)
      : given?.decision === 'ask'
        ? deny(`${hasText(given.reason) ? given.reason : CODEX_ASK}; ${CODEX_CANNOT_ASK}`)
        : null;
  return { ...result, continue: true, stopReason: null, permission };
}

/**
 * Codex 0.171.0 refuses a PermissionRequest output with `continue: false`, `stopReason` or a
 * deny's `interrupt: true` (`parse_permission_request` there), and then asks its user as if no
 * hook had decided: a stop is a deny with the stop reason, and a deny has no `interrupt`.
 */
function asCodexPermissionRequest(result: DispatchResult): DispatchResult {
  const given = result.permission;
  if (result.continue)
    return given === null ? result : { ...result, permission: { ...given, interrupt: false } };
  const denied = given?.decision === 'deny' ? given.reason : null;
  const reason = [denied, result.stopReason].find(hasText) ?? null;
  return {
    ...result,
    continue: true,
    stopReason: null,
    permission: { decision: 'deny', reason, interrupt: false },
  };
}

function hasText(reason: string | null): reason is string {
  return reason !== null && reason.trim() !== '';
}

function deny(reason: string): PermissionResult {
  return { decision: 'deny', reason, interrupt: false };
}
