import type { EventName } from '../hooks/events.js';

/**
 * D9 (docs/reference/rules/engine.md#d9): the specific output keys of Claude Code and Deep Agents
 * Code that hookpm's engine does not apply, by event. Deep Agents Code reports each as
 * `unsupported_field` when it is given a value other than null, false, "" or []; hookpm does the
 * same, so an author sees the same warning under either.
 */
const UNREAD: Partial<Record<EventName, readonly string[]>> = {
  SessionStart: ['initialUserMessage', 'sessionTitle', 'watchPaths', 'reloadSkills'],
  UserPromptSubmit: ['sessionTitle'],
  PostToolUse: ['updatedMCPToolOutput'],
};

function isEmptyValue(value: unknown): boolean {
  return (
    value === null ||
    value === false ||
    value === '' ||
    (Array.isArray(value) && value.length === 0)
  );
}

/** The unread keys `specific` (a hookSpecificOutput named for `event`) gives a value to. */
export function unreadSpecificKeys(event: EventName, specific: Record<string, unknown>): string[] {
  return (UNREAD[event] ?? []).filter(
    (key) => Object.hasOwn(specific, key) && !isEmptyValue(specific[key]),
  );
}
