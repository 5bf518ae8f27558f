import { EVENTS, type ClaudeCodeEventName, type EventName, type HookEventName } from './events.js';

/**
 * docs/reference/rules/engine.md#fail-closed: the events whose answer can stop what the agent is
 * about to do (a deny, a block, a stop refused). A handler hookpm cannot run as consented gives
 * their blocking answer; on the other events it gives a `systemMessage`.
 */
export const BLOCKING_EVENTS: ReadonlySet<HookEventName> = new Set<EventName>([
  'PreToolUse',
  'PermissionRequest',
  'UserPromptSubmit',
  'Stop',
]);

/**
 * docs/reference/rules/engine.md#b2 for Claude Code's own events (plugins.md G2), which only `wire
 * claude` runs: those where exit 2 blocks, and so where what cannot run as consented gets exit 2
 * with its reason. TeammateIdle is not one: its exit 2 keeps a teammate working, and hookpm keeps
 * no count of those, so a failure there is told and never loops (a Stop is continued once at most).
 */
export function blocksOnFailure(event: ClaudeCodeEventName): boolean {
  const policy = EVENTS[event].blockPolicy;
  return policy !== 'none' && policy !== 'continue';
}

/**
 * Something the host cannot run as consented (a plugin whose tree is tampered, missing or
 * unreadable; hookpm's own state or store it cannot read; a payload it refuses): what fails
 * closed, on which events, and why.
 */
export interface FailClosed {
  /** The plugin id; null for hookpm's own state, store or the payload. */
  plugin: string | null;
  /** The events its handlers would run on (Claude Code's own among them); null: every event. */
  events: readonly HookEventName[] | null;
  /** The text the agent gets: names hookpm, the plugin (or the file) and the command that fixes it. */
  reason: string;
  /**
   * The user chose fail-open for it (`failOpen` in settings.json): blocking events are not
   * blocked, and every event it applies to gets its reason as a `systemMessage` instead.
   */
  open?: boolean;
  /**
   * docs/reference/rules/policy.md#a11: set by the administrator's policy, which the user cannot
   * override: settings.json's `failOpen` never marks it `open`.
   */
  enforced?: boolean;
}
