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

/** What exit 2 or `decision:"block"` means for the event (docs/reference/rules/engine.md#events). */
export type BlockPolicy = 'none' | 'block' | 'deny' | 'feedback' | 'continue' | 'context';

/** What plain (non-JSON) stdout on exit 0 means. */
export type PlainStdoutPolicy = 'context' | 'malformed';

export interface EventSpec {
  readonly name: EventName;
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
  name: EventName,
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

export const EVENTS: Readonly<Record<EventName, EventSpec>> = {
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
};

const NAME_SET: ReadonlySet<string> = new Set(EVENT_NAMES);

export function isEventName(name: string): name is EventName {
  return NAME_SET.has(name);
}

/** Table order index, used to order events canonically (R3). */
export function eventOrder(name: EventName): number {
  return EVENT_NAMES.indexOf(name);
}
