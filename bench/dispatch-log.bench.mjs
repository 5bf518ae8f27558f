// What the decision log adds to a dispatch. dispatchEvent of one `true`
// handler (argv) with the log's sink (ops/steps/decision-log/dispatch-logger.ts: the line built, one O_APPEND
// write to <data>/log/dispatch.jsonl in a temporary store) next to the same dispatch without it,
// measured side by side in one run: rounds alternate which goes first so machine noise hits both
// alike, and the logged figure is the unlogged median plus the median of the rounds' paired
// differences, trimmed of their 20% tails (a round's two dispatches see the same load, so its difference is the log's cost
// plus noise that cancels out over rounds; a ratio of two medians taken apart drifts by several
// percent on a busy machine). Target: at most 1.05x. Then the sink's own cost per dispatch (build and append one line),
// next to the dispatch without a log. Uses dist/.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSnapshot } from '../dist/hooks/snapshot/snapshot.js';
import { dispatchEvent } from '../dist/engine/dispatch.js';
import { dispatchLogger } from '../dist/ops/steps/decision-log/dispatch-logger.js';
import { homeStorePaths } from '../dist/store/home-paths.js';
import { median } from './measure.mjs';

const ROUNDS = 500;
const WARMUP = 20;
const RATIO_TARGET = 1.05;
const INPUT = { tool_name: 'Bash', tool_input: { command: 'git status' } };

/** The mean of `values` without the `cut` share at each end (robust, and steadier than a median). */
function trimmedMean(values, cut) {
  const sorted = [...values].sort((a, b) => a - b);
  const drop = Math.floor(sorted.length * cut);
  const kept = sorted.slice(drop, sorted.length - drop);
  return kept.reduce((sum, v) => sum + v, 0) / kept.length;
}

async function time(fn) {
  const began = performance.now();
  await fn();
  return performance.now() - began;
}

export default async function run() {
  const root = mkdtempSync(join(tmpdir(), 'hookpm-bench-dlog-'));
  try {
    const paths = homeStorePaths(root);
    const groups = [
      { matcher: 'Bash', hooks: [{ type: 'command', command: 'true', argv: ['true'] }] },
    ];
    const snapshot = buildSnapshot({
      projectDir: root,
      sources: [{ origin: 'user', file: 'bench.json', config: { PreToolUse: groups } }],
    });
    const log = dispatchLogger(paths, { log: { enabled: true, text: false } }, 'bench');
    const check = (result) => {
      if (result.runs.length !== 1 || result.runs[0].exitCode !== 0)
        throw new Error(`Assertion failed: ${JSON.stringify(result.runs)}`);
    };
    const bare = () =>
      dispatchEvent(snapshot, 'PreToolUse', INPUT, { cwd: root, sessionId: 'b' }).then(check);
    const logged = () =>
      dispatchEvent(snapshot, 'PreToolUse', INPUT, { cwd: root, sessionId: 'b', log }).then(check);
    let sink = null;
    const capture = () =>
      dispatchEvent(snapshot, 'PreToolUse', INPUT, {
        cwd: root,
        sessionId: 'b',
        log: (r) => (sink = r),
      });
    const without = [];
    const withLog = [];
    for (let round = 0; round < WARMUP + ROUNDS; round += 1) {
      // ABBA order: neither side is first, or first after the same side, more often.
      const logFirst = round % 4 === 0 || round % 4 === 3;
      const a = await time(logFirst ? logged : bare);
      const b = await time(logFirst ? bare : logged);
      if (round < WARMUP) continue;
      withLog.push(logFirst ? a : b);
      without.push(logFirst ? b : a);
    }
    const lines = readFileSync(join(paths.data, 'log', 'dispatch.jsonl'), 'utf8').split('\n');
    if (lines.length - 1 !== WARMUP + ROUNDS)
      throw new Error(`Assertion failed: ${lines.length - 1} lines`);
    await capture();
    const samples = [];
    for (let r = 0; r < 31; r += 1) {
      const began = performance.now();
      for (let i = 0; i < 200; i += 1) log(sink);
      samples.push((performance.now() - began) / 200);
    }
    const bareMs = median(without);
    const extraMs = trimmedMean(
      withLog.map((ms, i) => ms - without[i]),
      0.2,
    );
    return [
      {
        name: 'dispatch-log: 1 `true` handler, logged vs not logged (paired)',
        valueMs: bareMs + extraMs,
        yardstick: { name: 'the same dispatch, no log', valueMs: bareMs },
        targetMs: bareMs * RATIO_TARGET,
      },
      {
        name: 'dispatch-log: the log sink alone (build + append one line)',
        valueMs: median(samples),
        yardstick: { name: 'a dispatch of 1 `true` handler, no log', valueMs: bareMs },
        targetMs: bareMs * (RATIO_TARGET - 1),
      },
    ];
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
