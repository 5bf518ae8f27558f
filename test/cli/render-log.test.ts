import { describe, expect, it } from 'vitest';
import { formatLogEntry, formatStats } from '../../src/cli/render/render-log.js';
import { computeStats } from '../../src/ops/steps/decision-log/hook-stats.js';
import type { LoggedDispatch } from '../../src/ops/steps/decision-log/dispatch-line.js';

/** A logged dispatch of one run, with `over` on top. */
function entry(over: Partial<LoggedDispatch> = {}): LoggedDispatch {
  return {
    v: 1,
    time: '2026-01-01T00:00:00.000Z',
    event: 'PreToolUse',
    source: 'claude',
    session: null,
    snapshot: 's',
    decision: 'deny',
    runs: [
      {
        handler: 'h1',
        origin: 'plugin',
        plugin: 'guard@local',
        exitCode: 2,
        ms: 3,
        timedOut: false,
        failed: false,
        decision: 'deny',
      },
    ],
    ...over,
  };
}

describe('formatLogEntry (hookpm log)', () => {
  it('cli.md conventions: control characters of logged text are escaped', () => {
    const line = formatLogEntry(
      entry({ notes: [{ code: 'c', message: 'a\u001b[31m\u001b]8;;x\u0007\r\u202eb' }] }),
    );
    expect(line).toContain('c: a\\u001b[31m\\u001b]8;;x\\u0007\\r\\u202eb');
    expect(line).not.toMatch(/[\u0000-\u001f\u202e]/);
  });

  it('cli.md conventions: each field of a line put in the log by something else is cut, never printed whole', () => {
    const long = 'x'.repeat(1_000_000);
    const [run] = entry().runs;
    const line = formatLogEntry(
      entry({
        event: long,
        source: long,
        runs: [{ ...run!, plugin: long, handler: long }],
        // A note of another shape (a damaged line) is shown as its JSON, cut the same way.
        notes: [{ code: 'c', message: long }, long] as unknown as LoggedDispatch['notes'],
      }),
    );
    expect(line.length).toBeLessThan(4000);
    expect(line).toContain(`${'x'.repeat(200)}...`);
    expect(line).toContain(`c: ${'x'.repeat(997)}...`);
  });

  it('cli.md conventions: stats cuts a plugin id, hook and event of any length, never prints them whole', () => {
    const long = 'x'.repeat(300_000);
    const [run] = entry().runs;
    const stats = computeStats([
      entry({ event: long, runs: [{ ...run!, plugin: `p\u001b[31m${long}`, handler: long }] }),
    ]);
    const text = formatStats(stats, null);
    expect(text.length).toBeLessThan(3000);
    expect(text).toContain(`p\\u001b[31m${'x'.repeat(194)}...`);
    expect(text).not.toContain('\u001b');
  });
});
