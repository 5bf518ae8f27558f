// The wall time of running N handlers (`true` via argv, N = 1 and 10, started together) with
// runHandler, next to spawning the same N processes directly with child_process.spawn (same payload
// on stdin, output drained, waiting for 'close'). Target: ratio at most 1.15. Rounds alternate
// between the two so that machine noise hits both alike. Uses dist/.
// A second pair of rows compares against spawn with `detached: true`, the option X4 (own process
// group) requires: it isolates the runner's own code from the kernel's cost of a new session
// (setsid, and with scheduler autogroups a new autogroup), which shows under CPU contention.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runHandler } from '../dist/engine/run-handler.js';
import { median } from './measure.mjs';

const ROUNDS = 60;
const WARMUP = 10;
const RATIO_TARGET = 1.15;
const PAYLOAD = JSON.stringify({
  session_id: 'bench',
  hook_event_name: 'PreToolUse',
  tool_name: 'Bash',
});

function handler(index) {
  return {
    id: `PreToolUse:${index}:0`,
    event: 'PreToolUse',
    groupIndex: index,
    handlerIndex: 0,
    origin: 'user',
    plugin: null,
    source: 'bench',
    matcher: null,
    if: null,
    command: 'true',
    argv: ['true'],
    timeoutSec: 60,
    statusMessage: null,
    pluginEnv: {},
    legacyStdin: null,
  };
}

function spawnDirectly(cwd, detached) {
  return new Promise((resolve, reject) => {
    const child = spawn('true', [], { cwd, stdio: 'pipe', detached });
    child.on('error', reject);
    child.stdin.on('error', () => {});
    child.stdin.end(PAYLOAD);
    child.stdout.resume();
    child.stderr.resume();
    child.on('close', resolve);
  });
}

async function timeRound(start, n) {
  const began = performance.now();
  await Promise.all(Array.from({ length: n }, (_, i) => start(i)));
  return performance.now() - began;
}

async function compare(n, cwd, detached) {
  const handlers = Array.from({ length: n }, (_, i) => handler(i));
  const opts = { stdin: PAYLOAD, cwd, projectDir: cwd, env: process.env };
  const viaRunner = async (i) => {
    const run = await runHandler(handlers[i], opts);
    if (run.exitCode !== 0) throw new Error(`Assertion failed: handler exited ${run.exitCode}`);
  };
  const direct = () => spawnDirectly(cwd, detached);
  const runner = [];
  const bare = [];
  for (let round = 0; round < WARMUP + ROUNDS; round += 1) {
    const first = round % 2 === 0;
    const a = await timeRound(first ? viaRunner : direct, n);
    const b = await timeRound(first ? direct : viaRunner, n);
    if (round < WARMUP) continue;
    runner.push(first ? a : b);
    bare.push(first ? b : a);
  }
  const yardstickMs = median(bare);
  return {
    name: `runner: ${n} handler${n === 1 ? '' : 's'} (\`true\` via argv) vs spawn${detached ? ' detached' : ''}`,
    valueMs: median(runner),
    yardstick: {
      name: `child_process.spawn${detached ? ' detached' : ''} x${n}`,
      valueMs: yardstickMs,
    },
    targetMs: yardstickMs * RATIO_TARGET,
  };
}

export default async function run() {
  const cwd = mkdtempSync(join(tmpdir(), 'hookpm-bench-runner-'));
  try {
    const rows = [];
    for (const detached of [false, true]) {
      for (const n of [1, 10]) rows.push(await compare(n, cwd, detached));
    }
    return rows;
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}
