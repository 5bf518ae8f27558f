/** Tab completion at the session prompt (node:readline's completer contract). */
import { describe, expect, it } from 'vitest';
import { completeSessionLine } from '../../src/cli/session/session-completer.js';

describe('session prompt completion', () => {
  it.each([
    ['/re', [['/reload'], '/re']],
    ['/', [['/reload', '/hooks', '/help', '/quit', '/exit'], '/']],
    ['/h', [['/hooks', '/help'], '/h']],
    ['/x', [[], '/x']],
    ['PreTo', [['PreToolUse '], 'PreTo']],
    ['Pre', [['PreToolUse', 'PreCompact'], 'Pre']],
    ['Sto', [['Stop '], 'Sto']],
    ['pre', [[], 'pre']], // event names are case-sensitive
    ['Stop ', [['{}'], '']],
    ['Stop {', [['{}'], '{']],
    ['Stop {"a":1}', [[], '{"a":1}']],
    ['Nope ', [[], '']],
  ] as const)('%j completes to %j', (line, expected) => {
    expect(completeSessionLine(line)).toEqual(expected);
  });

  it('every event name completes from its first letters', () => {
    const [hits] = completeSessionLine('');
    expect(hits).toContain('SessionStart');
    expect(hits).toContain('UserPromptSubmit');
  });
});
