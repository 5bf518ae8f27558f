// The wall time of dispatchEvent to N handlers (`true` via argv, N = 1 and 10) next to spawning the
// same N processes directly with child_process.spawn and waiting for them (same payload size on
// stdin, output drained, waiting for 'close'). Target: ratio at most 1.15. Rounds alternate which
// side goes first so machine noise hits both alike. Then the median cost of a dispatch that matches
// no handler, on a snapshot of a few hundred non-matching groups (target under 20 microseconds),
// next to one `await` of a resolved promise. Uses dist/.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSnapshot } from '../dist/hooks/snapshot/snapshot.js';
import { dispatchEvent } from '../dist/engine/dispatch.js';
import { median } from './measure.mjs';

const ROUNDS = 60;
const WARMUP = 10;
const RATIO_TARGET = 1.15;
const INPUT = { tool_name: 'Bash', tool_input: { command: 'git status' } };
const SPAWN_PAYLOAD = JSON.stringify({
  session_id: 'bench',
  cwd: '/tmp',
  permission_mode: 'default',
  hook_event_name: 'PreToolUse',
  ...INPUT,
});

const trueHandler = { type: 'command', command: 'true', argv: ['true'] };

function snapshotOf(projectDir, groups) {
  const config = { PreToolUse: groups };
  return buildSnapshot({ projectDir, sources: [{ origin: 'user', file: 'bench.json', config }] });
}

function spawnDirectly(cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn('true', [], { cwd, stdio: 'pipe' });
    child.on('error', reject);
    child.stdin.on('error', () => {});
    child.stdin.end(SPAWN_PAYLOAD);
    child.stdout.resume();
    child.stderr.resume();
    child.on('close', resolve);
  });
}

async function time(fn) {
  const began = performance.now();
  await fn();
  return performance.now() - began;
}

async function compare(n, cwd) {
  const groups = Array.from({ length: n }, () => ({ matcher: 'Bash', hooks: [trueHandler] }));
  const snapshot = snapshotOf(cwd, groups);
  const viaDispatch = async () => {
    const result = await dispatchEvent(snapshot, 'PreToolUse', INPUT, { cwd, sessionId: 'bench' });
    if (result.runs.length !== n || result.runs.some((r) => r.exitCode !== 0)) {
      throw new Error(`Assertion failed: ${JSON.stringify(result.runs)}`);
    }
  };
  const direct = () => Promise.all(Array.from({ length: n }, () => spawnDirectly(cwd)));
  const dispatched = [];
  const bare = [];
  for (let round = 0; round < WARMUP + ROUNDS; round += 1) {
    const dispatchFirst = round % 2 === 0;
    const a = await time(dispatchFirst ? viaDispatch : direct);
    const b = await time(dispatchFirst ? direct : viaDispatch);
    if (round < WARMUP) continue;
    dispatched.push(dispatchFirst ? a : b);
    bare.push(dispatchFirst ? b : a);
  }
  const yardstickMs = median(bare);
  return {
    name: `dispatch: ${n} handler${n === 1 ? '' : 's'} (\`true\` via argv) vs spawn`,
    valueMs: median(dispatched),
    yardstick: { name: `child_process.spawn x${n}`, valueMs: yardstickMs },
    targetMs: yardstickMs * RATIO_TARGET,
  };
}

/** Median per-call milliseconds of awaiting `fn()` sequentially, `batch` calls per sample. */
async function medianAwaitMs(fn, { batch = 2000, reps = 31, warmup = 5 } = {}) {
  const samples = [];
  for (let r = 0; r < warmup + reps; r += 1) {
    const began = performance.now();
    for (let i = 0; i < batch; i += 1) await fn();
    if (r >= warmup) samples.push((performance.now() - began) / batch);
  }
  return median(samples);
}

async function noMatch(cwd) {
  const GROUPS = 300;
  const groups = Array.from({ length: GROUPS }, (_, i) => ({
    matcher:
      i % 3 === 0 ? `^mcp__server${i}__.*` : i % 3 === 1 ? `Tool${i}` : `Edit|Write|Tool${i}x`,
    hooks: [trueHandler],
  }));
  const snapshot = snapshotOf(cwd, groups);
  const first = await dispatchEvent(snapshot, 'PreToolUse', INPUT);
  if (first.runs.length !== 0) throw new Error('Assertion failed: a group matched');
  const valueMs = await medianAwaitMs(() => dispatchEvent(snapshot, 'PreToolUse', INPUT));
  const resolved = Promise.resolve(null);
  const yardstickMs = await medianAwaitMs(() => resolved);
  return {
    name: `dispatch: no handler matches, ${GROUPS} groups`,
    valueMs,
    yardstick: { name: 'await a resolved promise', valueMs: yardstickMs },
    targetMs: 0.02,
  };
}

export default async function run() {
  const cwd = mkdtempSync(join(tmpdir(), 'hookpm-bench-dispatch-'));
  try {
    return [await compare(1, cwd), await compare(10, cwd), await noMatch(cwd)];
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}
