import type { EventName, HookEventName } from '../hooks/events.js';

/**
 * Gemini CLI's hook events (`HookEventName` in packages/core/src/hooks/types.ts of
 * github:google-gemini/gemini-cli, as bundled in @google/gemini-cli 0.61.0) and the engine event
 * each is (docs/hooks/reference.md there says what each fires on and reads back). In the engine's
 * order; AfterTool is PostToolUse, or PostToolUseFailure when its `tool_response` has an `error`.
 */
export const GEMINI_EVENT_OF: Readonly<Record<string, EventName>> = {
  SessionStart: 'SessionStart',
  BeforeAgent: 'UserPromptSubmit',
  SessionEnd: 'SessionEnd',
  Notification: 'Notification',
  BeforeTool: 'PreToolUse',
  AfterTool: 'PostToolUse',
  PreCompress: 'PreCompact',
  AfterAgent: 'Stop',
};

/** Gemini CLI's events of the model and tool selection, which the engine does not have. */
export const GEMINI_EVENTS_NOT_LINKED: readonly string[] = [
  'BeforeModel',
  'AfterModel',
  'BeforeToolSelection',
];

/** The Gemini CLI event of an engine event: the reverse of GEMINI_EVENT_OF. */
export function geminiEventOf(event: HookEventName): string {
  if (event === 'PostToolUseFailure') return 'AfterTool';
  const found = Object.entries(GEMINI_EVENT_OF).find(([, engine]) => engine === event);
  if (found === undefined) throw new Error(`Assertion failed: Gemini CLI has no ${event} event`);
  return found[0];
}

/** One Gemini CLI tool as plugins know it: Claude Code's tool name and its input field names. */
interface ToolName {
  name: string;
  /** Gemini CLI's argument name to Claude Code's; arguments not listed keep their names. */
  fields: Readonly<Record<string, string>>;
}

/**
 * Gemini CLI's built-in tools with a Claude Code counterpart (tool and argument names from
 * packages/core/src/tools/definitions/base-declarations.ts, the same strings in the 0.61.0 bundle):
 * `run_shell_command {command, description}` is `Bash`, and so on. Others keep their names
 * (`list_directory`, `read_many_files`, `save_memory`, ...); MCP tools: gemini-payload.ts.
 */
export const GEMINI_TOOLS: Readonly<Record<string, ToolName>> = {
  run_shell_command: { name: 'Bash', fields: { is_background: 'run_in_background' } },
  read_file: { name: 'Read', fields: {} },
  write_file: { name: 'Write', fields: {} },
  replace: { name: 'Edit', fields: { allow_multiple: 'replace_all' } },
  glob: { name: 'Glob', fields: { dir_path: 'path' } },
  grep_search: { name: 'Grep', fields: { dir_path: 'path', include_pattern: 'glob' } },
  web_fetch: { name: 'WebFetch', fields: {} },
  google_web_search: { name: 'WebSearch', fields: {} },
  write_todos: { name: 'TodoWrite', fields: {} },
  // `questions: [{question, header, options: [{label, description}], multiSelect, ...}]`, as Claude
  // Code's AskUserQuestion has them.
  ask_user: { name: 'AskUserQuestion', fields: {} },
};

/**
 * Gemini CLI's Notification types (`NotificationType`: only `ToolPermission`) as Claude Code names
 * them (`permission_prompt`), so a plugin's Notification matcher sees the same value.
 */
export const GEMINI_NOTIFICATION_TYPES: Readonly<Record<string, string>> = {
  ToolPermission: 'permission_prompt',
};
