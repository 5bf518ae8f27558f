import { describe, expect, it } from 'vitest';
import { EVENT_NAMES, EVENTS, eventOrder, isEventName } from '../../src/hooks/events.js';

/** engine.md section 1, transcribed row by row: name, matcher field, default timeout, block, plain stdout. */
const SPEC_TABLE = [
  ['SessionStart', 'source', 600, 'none', 'context'],
  ['UserPromptSubmit', null, 30, 'block', 'context'],
  ['SessionEnd', 'reason', 600, 'none', 'malformed'],
  ['PermissionRequest', 'tool_name', 600, 'deny', 'malformed'],
  ['Notification', 'notification_type', 600, 'none', 'malformed'],
  ['PreToolUse', 'tool_name', 600, 'deny', 'malformed'],
  ['PostToolUse', 'tool_name', 600, 'feedback', 'malformed'],
  ['PostToolUseFailure', 'tool_name', 600, 'feedback', 'malformed'],
  ['PreCompact', 'trigger', 600, 'block', 'malformed'],
  ['Stop', null, 600, 'continue', 'malformed'],
  ['SubagentStart', 'agent_type', 600, 'none', 'malformed'],
  ['SubagentStop', 'agent_type', 600, 'context', 'malformed'],
] as const;

const TOOL_EVENTS = ['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'PermissionRequest'];

describe('events table (engine.md section 1)', () => {
  it('section 1: there are exactly the twelve events of the table, in table order', () => {
    expect(EVENT_NAMES).toEqual(SPEC_TABLE.map((row) => row[0]));
    expect(EVENT_NAMES.map(eventOrder)).toEqual(SPEC_TABLE.map((_, i) => i));
  });

  it.each(SPEC_TABLE)(
    'section 1: %s has matcher field %s, default timeout %i s, block policy %s, plain stdout %s',
    (name, matcherField, timeout, block, plain) => {
      const spec = EVENTS[name];
      expect(spec.name).toBe(name);
      expect(spec.matcherField).toBe(matcherField);
      expect(spec.defaultTimeoutSec).toBe(timeout);
      expect(spec.blockPolicy).toBe(block);
      expect(spec.plainStdout).toBe(plain);
      expect(spec.tool).toBe(TOOL_EVENTS.includes(name));
    },
  );

  it('section 1: event names are case-sensitive', () => {
    expect(isEventName('PreToolUse')).toBe(true);
    expect(isEventName('preToolUse')).toBe(false);
    expect(isEventName('Setup')).toBe(false);
    expect(isEventName('__proto__')).toBe(false);
  });
});
