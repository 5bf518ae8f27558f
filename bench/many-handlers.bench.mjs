// The runner at scale (engine.md X1, X6): the wall time of dispatchEvent to 2,000 matching
// handlers (`true` via argv, timeout 10 s), next to spawning the same 2,000 processes directly with
// child_process.spawn (detached, as handlers are; same payload on stdin, output drained, waiting for
// 'close'), HANDLERS_AT_ONCE at a time. Target: ratio at most 1.15. Every dispatch must keep all
// 2,000 results with none timed out, or the bench throws. Rounds alternate which side goes first so
// machine noise hits both alike. Uses dist/.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSnapshot } from '../dist/hooks/snapshot/snapshot.js';
import { dispatchEvent } from '../dist/engine/dispatch.js';
import { HANDLERS_AT_ONCE } from '../dist/engine/run-matched.js';
import { median } from './measure.mjs';

const HANDLERS = 2000;
const ROUNDS = 3;
const RATIO_TARGET = 1.15;
const INPUT = { tool_name: 'Bash', tool_input: { command: 'git status' } };
const SPAWN_PAYLOAD = JSON.stringify({
  session_id: 'bench',
  cwd: '/tmp',
  permission_mode: 'default',
  hook_event_name: 'PreToolUse',
  ...INPUT,
});

function spawnDirectly(cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn('true', [], { cwd, stdio: 'pipe', detached: true });
    child.on('error', reject);
    child.stdin.on('error', () => {});
    child.stdin.end(SPAWN_PAYLOAD);
    child.stdout.resume();
    child.stderr.resume();
    child.on('close', resolve);
  });
}

/** `n` direct spawns, `limit` at a time: each close starts the next. */
function spawnAll(cwd, n, limit) {
  return new Promise((resolve, reject) => {
    let started = 0;
    let closed = 0;
    const next = () => {
      if (started >= n) return;
      started += 1;
      spawnDirectly(cwd).then(() => {
        closed += 1;
        if (closed === n) resolve();
        else next();
      }, reject);
    };
    for (let i = 0; i < Math.min(limit, n); i += 1) next();
  });
}

async function time(fn) {
  const began = performance.now();
  await fn();
  return performance.now() - began;
}

export default async function run() {
  const cwd = mkdtempSync(join(tmpdir(), 'hookpm-bench-many-'));
  try {
    const handler = { type: 'command', command: 'true', argv: ['true'], timeout: 10 };
    const groups = Array.from({ length: HANDLERS }, () => ({ matcher: 'Bash', hooks: [handler] }));
    const config = { PreToolUse: groups };
    const snapshot = buildSnapshot({
      projectDir: cwd,
      sources: [{ origin: 'user', file: 'bench.json', config }],
    });
    const viaDispatch = async () => {
      const result = await dispatchEvent(snapshot, 'PreToolUse', INPUT, { cwd, sessionId: 'b' });
      const lost = result.runs.filter((r) => r.timedOut || r.exitCode !== 0).length;
      if (result.runs.length !== HANDLERS || lost > 0) {
        throw new Error(
          `Assertion failed: ${result.runs.length} runs, ${lost} timed out or failed`,
        );
      }
    };
    const direct = () => spawnAll(cwd, HANDLERS, HANDLERS_AT_ONCE);
    const dispatched = [];
    const bare = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const dispatchFirst = round % 2 === 0;
      const a = await time(dispatchFirst ? viaDispatch : direct);
      const b = await time(dispatchFirst ? direct : viaDispatch);
      dispatched.push(dispatchFirst ? a : b);
      bare.push(dispatchFirst ? b : a);
    }
    const yardstickMs = median(bare);
    return [
      {
        name: `dispatch: ${HANDLERS} handlers (\`true\`, timeout 10 s), none timed out, vs spawn`,
        valueMs: median(dispatched),
        yardstick: {
          name: `child_process.spawn x${HANDLERS}, ${HANDLERS_AT_ONCE} at a time`,
          valueMs: yardstickMs,
        },
        targetMs: yardstickMs * RATIO_TARGET,
      },
    ];
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}
