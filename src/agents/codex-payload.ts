import type { EventName } from '../hooks/events.js';
import type { WireEvent } from './agent.js';
import { decodeClaudePayload } from './claude-payload.js';

/**
 * The engine events Codex 0.171.0 has: the hook input schemas compiled into its binary
 * (`codex-rs/hooks/schema/generated/*.command.input.schema.json` in github:openai/codex), whose
 * `hook_event_name` constants are PreToolUse, PermissionRequest, PostToolUse, PreCompact,
 * PostCompact, SessionStart, SessionEnd, SubagentStart, SubagentStop, UserPromptSubmit, Stop and
 * Interrupt. It has no Notification and no PostToolUseFailure.
 */
export const CODEX_EVENTS: readonly EventName[] = [
  'SessionStart',
  'UserPromptSubmit',
  'SessionEnd',
  'PermissionRequest',
  'PreToolUse',
  'PostToolUse',
  'PreCompact',
  'Stop',
  'SubagentStart',
  'SubagentStop',
];

/** Codex's events that the engine does not have: not linked. */
export const CODEX_EVENTS_NOT_LINKED: readonly string[] = ['PostCompact', 'Interrupt'];

/**
 * Codex's tools whose hooks also match other names (`HookToolName` in codex-rs of
 * github:openai/codex: its `matcher_aliases`, which Codex's own matchers accept beside the
 * `tool_name` it writes): `apply_patch`, with `tool_input.command` the patch, is matched as
 * Claude Code's `Write` and `Edit`.
 */
export const CODEX_MATCHER_ALIASES: Readonly<Record<string, readonly string[]>> = {
  apply_patch: ['Write', 'Edit'],
};

/**
 * Codex's payload is the engine's (Claude Code's field names: `session_id`, `hook_event_name`,
 * `tool_name`, `tool_input`, ...), and Codex already names its shell tool `Bash` with
 * `tool_input.command` (measured: test/agents/codex.ts). A payload naming the tool as the model
 * calls it, `exec_command` with `cmd`, is mapped to that too, so a plugin matching `Bash` sees it.
 * A tool of CODEX_MATCHER_ALIASES keeps its name and gets its aliases (cli.md W4).
 */
export function decodeCodexPayload(payload: Readonly<Record<string, unknown>>): WireEvent | null {
  const decoded = decodeClaudePayload(payload, CODEX_EVENTS);
  const tool = decoded?.input['tool_name'];
  if (typeof tool === 'string' && Object.hasOwn(CODEX_MATCHER_ALIASES, tool))
    return { ...decoded!, matcherAliases: CODEX_MATCHER_ALIASES[tool]! };
  if (decoded === null || tool !== 'exec_command') return decoded;
  const raw = decoded.input['tool_input'];
  const args = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  const { cmd, ...rest } = args;
  // The command Codex runs is `cmd`: a `command` beside it (the model may write any argument) is
  // replaced, never read as the command, or a guard would judge text that does not run.
  const toolInput = cmd === undefined ? args : { ...rest, command: cmd };
  return { ...decoded, input: { ...decoded.input, tool_name: 'Bash', tool_input: toolInput } };
}
