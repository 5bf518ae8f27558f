/**
 * The twelve events of docs/reference/rules/engine.md#events, as data. Every place that needs an
 * event's matcher field, default timeout or policies reads it from here.
 */
export const EVENT_NAMES = [
  'SessionStart',
  'UserPromptSubmit',
  'SessionEnd',
  'PermissionRequest',
  'Notification',
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PreCompact',
  'Stop',
  'SubagentStart',
  'SubagentStop',
] as const;

export type EventName = (typeof EVENT_NAMES)[number];

/**
 * Claude Code's events beyond the twelve (plugins.md G1): Claude Code 2.1.332 has 34 events, and
 * these 22 are its alone. Plugin documents may hook them; only `hookpm wire claude` runs them
 * (linked by `hookpm link claude` when an enabled plugin hooks them), with Claude Code's own
 * semantics (agents/claude-code-answer.ts). hookpm's engine, Deep Agents Code, Codex and Gemini CLI
 * never run them.
 */
export const CLAUDE_CODE_EVENT_NAMES = [
  'PostToolBatch',
  'UserPromptExpansion',
  'StopFailure',
  'PostCompact',
  'PreModelSwitch',
  'PostModelSwitch',
  'PermissionDenied',
  'Setup',
  'TeammateIdle',
  'TaskCreated',
  'TaskCompleted',
  'Elicitation',
  'ElicitationResult',
  'ConfigChange',
  'WorktreeCreate',
  'WorktreeRemove',
  'InstructionsLoaded',
  'CwdChanged',
  'FileChanged',
  'DirectoryAdded',
  'MessageDisplay',
  'PreSkillShellCommand',
] as const;

export type ClaudeCodeEventName = (typeof CLAUDE_CODE_EVENT_NAMES)[number];

/** Any event a hooks document may hook: the engine's twelve and Claude Code's own. */
export type HookEventName = EventName | ClaudeCodeEventName;

/** What exit 2 or `decision:"block"` means for the event (docs/reference/rules/engine.md#events). */
export type BlockPolicy = 'none' | 'block' | 'deny' | 'feedback' | 'continue' | 'context';

/** What plain (non-JSON) stdout on exit 0 means. */
export type PlainStdoutPolicy = 'context' | 'malformed';

export interface EventSpec {
  readonly name: HookEventName;
  /** Payload field the group matcher is tested against; null accepts only wildcard matchers. */
  readonly matcherField: string | null;
  readonly defaultTimeoutSec: number;
  readonly blockPolicy: BlockPolicy;
  readonly plainStdout: PlainStdoutPolicy;
  /** Tool events, for the `if` predicate (docs/reference/rules/engine.md#the-if-predicate). */
  readonly tool: boolean;
  /** Keys recognised inside hookSpecificOutput (L2); null means no specific output allowed. */
  readonly specificKeys: readonly string[] | null;
}

const CONTEXT_ONLY = ['additionalContext'] as const;

function spec(
  name: HookEventName,
  matcherField: string | null,
  blockPolicy: BlockPolicy,
  specificKeys: readonly string[] | null,
  extra: Partial<Pick<EventSpec, 'defaultTimeoutSec' | 'plainStdout' | 'tool'>> = {},
): EventSpec {
  return {
    name,
    matcherField,
    blockPolicy,
    specificKeys,
    defaultTimeoutSec: extra.defaultTimeoutSec ?? 600,
    plainStdout: extra.plainStdout ?? 'malformed',
    tool: extra.tool ?? false,
  };
}

export const EVENTS: Readonly<Record<HookEventName, EventSpec>> = {
  SessionStart: spec('SessionStart', 'source', 'none', CONTEXT_ONLY, { plainStdout: 'context' }),
  UserPromptSubmit: spec(
    'UserPromptSubmit',
    null,
    'block',
    ['additionalContext', 'suppressOriginalPrompt'],
    { defaultTimeoutSec: 30, plainStdout: 'context' },
  ),
  SessionEnd: spec('SessionEnd', 'reason', 'none', null),
  PermissionRequest: spec('PermissionRequest', 'tool_name', 'deny', ['decision'], { tool: true }),
  Notification: spec('Notification', 'notification_type', 'none', null),
  PreToolUse: spec(
    'PreToolUse',
    'tool_name',
    'deny',
    ['permissionDecision', 'permissionDecisionReason', 'updatedInput', 'additionalContext'],
    { tool: true },
  ),
  PostToolUse: spec(
    'PostToolUse',
    'tool_name',
    'feedback',
    ['additionalContext', 'updatedToolOutput'],
    {
      tool: true,
    },
  ),
  PostToolUseFailure: spec('PostToolUseFailure', 'tool_name', 'feedback', CONTEXT_ONLY, {
    tool: true,
  }),
  PreCompact: spec('PreCompact', 'trigger', 'block', null),
  Stop: spec('Stop', null, 'continue', CONTEXT_ONLY),
  SubagentStart: spec('SubagentStart', 'agent_type', 'none', CONTEXT_ONLY),
  SubagentStop: spec('SubagentStop', 'agent_type', 'context', CONTEXT_ONLY),
  // Claude Code's own events (G1): the matcher field is the one Claude Code matches, the block
  // policy what its exit 2 does there ('none': exit 2 is a plain error), as Claude Code 2.1.332's
  // hook event table says. specificKeys null: hookSpecificOutput passes through to Claude Code.
  PostToolBatch: spec('PostToolBatch', null, 'block', null),
  UserPromptExpansion: spec('UserPromptExpansion', 'command_name', 'block', null, {
    plainStdout: 'context',
  }),
  StopFailure: spec('StopFailure', 'error', 'none', null),
  PostCompact: spec('PostCompact', 'trigger', 'none', null, { plainStdout: 'context' }),
  PreModelSwitch: spec('PreModelSwitch', 'to_model', 'deny', null),
  PostModelSwitch: spec('PostModelSwitch', 'to_model', 'none', null, { plainStdout: 'context' }),
  PermissionDenied: spec('PermissionDenied', 'tool_name', 'none', null, { tool: true }),
  Setup: spec('Setup', 'trigger', 'none', null),
  TeammateIdle: spec('TeammateIdle', null, 'continue', null),
  TaskCreated: spec('TaskCreated', null, 'block', null),
  TaskCompleted: spec('TaskCompleted', null, 'block', null),
  Elicitation: spec('Elicitation', 'mcp_server_name', 'deny', null),
  ElicitationResult: spec('ElicitationResult', 'mcp_server_name', 'block', null),
  ConfigChange: spec('ConfigChange', 'source', 'block', null),
  WorktreeCreate: spec('WorktreeCreate', null, 'none', null, { plainStdout: 'context' }),
  WorktreeRemove: spec('WorktreeRemove', null, 'none', null),
  InstructionsLoaded: spec('InstructionsLoaded', 'load_reason', 'none', null),
  CwdChanged: spec('CwdChanged', null, 'none', null),
  // Claude Code matches FileChanged against the file's base name: wire gives it as `file_name`.
  FileChanged: spec('FileChanged', 'file_name', 'none', null),
  DirectoryAdded: spec('DirectoryAdded', 'source', 'none', null),
  MessageDisplay: spec('MessageDisplay', null, 'none', null),
  PreSkillShellCommand: spec('PreSkillShellCommand', 'tool_name', 'deny', null, { tool: true }),
};

const NAME_SET: ReadonlySet<string> = new Set(EVENT_NAMES);
const CLAUDE_CODE_SET: ReadonlySet<string> = new Set(CLAUDE_CODE_EVENT_NAMES);

export function isEventName(name: string): name is EventName {
  return NAME_SET.has(name);
}

/** One of Claude Code's own events (G1), which only `hookpm wire claude` runs. */
export function isClaudeCodeEvent(name: string): name is ClaudeCodeEventName {
  return CLAUDE_CODE_SET.has(name);
}

/** Every event a hooks document may hook, in table order: the engine's twelve, then Claude Code's. */
export const HOOK_EVENT_NAMES: readonly HookEventName[] = [
  ...EVENT_NAMES,
  ...CLAUDE_CODE_EVENT_NAMES,
];

export function isHookEventName(name: string): name is HookEventName {
  return isEventName(name) || isClaudeCodeEvent(name);
}

/** Table order index, used to order events canonically (R3). */
export function eventOrder(name: HookEventName): number {
  return HOOK_EVENT_NAMES.indexOf(name);
}
