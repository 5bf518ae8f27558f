/**
 * engine.md X1 and X6 at scale: many matching handlers run a bounded number at a time, each
 * deadline counts from its own spawn, and every handler's result is kept.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dispatchEvent } from '../../src/engine/dispatch.js';
import { HANDLERS_AT_ONCE } from '../../src/engine/run-matched.js';
import { waitUntil } from '../engine/runner-fixtures.js';
import { argv, group, sh, userSnapshot } from './dispatch-helpers.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tmp = useTempDir('dispatch-scale');
const INPUT = { tool_name: 'Bash', tool_input: { command: 'ls' } };

describe('dispatchEvent at scale (engine.md X1, X6)', () => {
  it('X1/X6: 450 matching handlers that sleep 0.6 s, of timeout 2 s, all finish, in configuration order, and none is reported timed out, though the dispatch outlasts two timeouts', async () => {
    const groups = Array.from({ length: 450 }, () =>
      group('Bash', argv(['sleep', '0.6'], { timeout: 2 })),
    );
    const snapshot = userSnapshot(tmp.dir, { PreToolUse: groups });
    const started = performance.now();
    const result = await dispatchEvent(snapshot, 'PreToolUse', INPUT, { cwd: tmp.dir });
    const elapsed = performance.now() - started;
    expect(result.runs).toHaveLength(450);
    expect(result.runs.map((r) => r.handler)).toEqual(groups.map((_, i) => `PreToolUse:${i}:0`));
    expect(result.runs.filter((r) => r.timedOut)).toEqual([]);
    expect(result.runs.filter((r) => r.exitCode !== 0)).toEqual([]);
    expect(result.diagnostics).toEqual([]);
    // X6: each deadline counts from its own handler's spawn. At most HANDLERS_AT_ONCE run at once,
    // so the dispatch takes at least 450 / HANDLERS_AT_ONCE x 0.6 s (4.2 s) on any machine; were
    // the deadlines counted from the dispatch, the handlers started after its first 2 s would
    // have been reported timed out. (Fewer, longer handlers than 1,000 of 0.3 s: the same length
    // for half the processes.)
    expect(elapsed).toBeGreaterThan(4000);
  }, 300_000);

  it(`X1: at most ${HANDLERS_AT_ONCE} handlers of one dispatch run at once; the next starts as one ends`, async () => {
    const live = join(tmp.dir, 'live');
    const counts = join(tmp.dir, 'counts');
    const go = join(tmp.dir, 'go');
    const script = [
      `mkdir -p '${live}'`,
      `touch '${live}'/$$`,
      `ls '${live}' | wc -l >> '${counts}'`,
      `while [ ! -e '${go}' ]; do sleep 0.25; done`,
      `rm '${live}'/$$`,
    ].join('; ');
    const total = HANDLERS_AT_ONCE + 20;
    const groups = Array.from({ length: total }, () => group('Bash', sh(script, { timeout: 120 })));
    const snapshot = userSnapshot(tmp.dir, { PreToolUse: groups });
    const running = dispatchEvent(snapshot, 'PreToolUse', INPUT, { cwd: tmp.dir });
    const liveNow = () => (existsSync(live) ? readdirSync(live).length : 0);
    await waitUntil(() => liveNow() === HANDLERS_AT_ONCE, 120_000, 'the bound to fill');
    await new Promise((r) => setTimeout(r, 500));
    expect(liveNow()).toBe(HANDLERS_AT_ONCE);
    writeFileSync(go, '');
    const result = await running;
    expect(result.runs.map((r) => r.exitCode)).toEqual(Array(total).fill(0));
    const seen = readFileSync(counts, 'utf8').trim().split('\n').map(Number);
    expect(seen).toHaveLength(total);
    // No handler ever saw more than the bound running (liveNow showed the bound reached, above).
    expect(Math.max(...seen)).toBeLessThanOrEqual(HANDLERS_AT_ONCE);
  }, 300_000);
});
