import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { watchdogPid } from '../../src/engine/group-watchdog.js';
import { dispatchEvent } from '../../src/engine/dispatch.js';
import { isAlive } from '../engine/runner-fixtures.js';
import { argv, group, sh, userSnapshot } from './dispatch-helpers.js';

// Its own file, so that no other test of this worker's module graph has started a handler first.

// The handlers here write nothing: the system's temporary directory serves as their project.
const dir = tmpdir();

describe('the watchdog costs nothing until a handler runs (security.md "The runtime", X4)', () => {
  it('X4: dispatches that start no handler (no match, an `if` that does not hold, an event nobody hooks) start no watchdog; the first handler that runs does, and later ones share it', async () => {
    const snapshot = userSnapshot(dir, {
      PreToolUse: [group('Write', sh('true')), group('Bash', sh('true', { if: 'Bash(git *)' }))],
      Stop: [group(null, argv(['true']))],
    });
    await dispatchEvent(snapshot, 'PreToolUse', { tool_name: 'Edit' });
    await dispatchEvent(snapshot, 'PreToolUse', {
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
    });
    await dispatchEvent(snapshot, 'SessionStart', { source: 'startup' });
    expect(watchdogPid()).toBeNull();

    await dispatchEvent(snapshot, 'Stop', {});
    const watchdog = watchdogPid();
    expect(watchdog).toEqual(expect.any(Number));
    expect(isAlive(watchdog as number)).toBe(true);
    await dispatchEvent(snapshot, 'PreToolUse', { tool_name: 'Write' });
    expect(watchdogPid()).toBe(watchdog);
  });
});
