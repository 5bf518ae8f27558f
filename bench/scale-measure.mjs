// Timing for the scale benchmarks (bench/scale-*.bench.mjs): one command's wall time and the CPU
// time of its Node processes (bench/cpu-preload.cjs, preloaded through NODE_OPTIONS), medians of
// both over interleaved runs.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './measure.mjs';

export const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
export const BIN = join(REPO, 'bin', 'hookpm.js');
const CPU_FILE = join(tmpdir(), `hookpm-bench-cpu-${process.pid}`);
// The file of the last command timed is removed when the benchmark's process ends.
process.on('exit', () => rmSync(CPU_FILE, { force: true }));
const PRELOAD = join(REPO, 'bench', 'cpu-preload.cjs');

/**
 * Runs `command args` with `input` on stdin: its wall time and the CPU time of its Node processes
 * (0 for a command that is not Node). Throws when it exits with another status than 0.
 */
export function timeRun(command, args, env, input = '', cwd = undefined) {
  rmSync(CPU_FILE, { force: true });
  const cpuEnv = { ...env, BENCH_CPU_FILE: CPU_FILE, NODE_OPTIONS: `--require=${PRELOAD}` };
  const start = performance.now();
  const child = spawnSync(command, args, {
    env: cpuEnv,
    input,
    cwd,
    maxBuffer: 256 * 1024 * 1024,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const ms = performance.now() - start;
  if (child.status !== 0)
    throw new Error(`${args.join(' ')} exited ${child.status}: ${child.stderr}`);
  const cpu = existsSync(CPU_FILE)
    ? readFileSync(CPU_FILE, 'utf8')
        .split('\n')
        .filter(Boolean)
        .reduce((sum, line) => sum + Number(line), 0)
    : 0;
  return { ms, cpu, stdout: child.stdout.toString('utf8') };
}

/** The medians of a list of timeRun results. */
export function medians(runs) {
  return { ms: median(runs.map((r) => r.ms)), cpu: median(runs.map((r) => r.cpu)) };
}

/** Two results per comparison: CPU time, then wall time. */
export function compared(name, target, value, yardstick, yardstickName) {
  return [
    ['CPU', 'cpu'],
    ['wall', 'ms'],
  ].map(([what, key]) => ({
    name: `${name} (${what}; target <= ${target}x)`,
    valueMs: value[key],
    yardstick: { name: yardstickName, valueMs: yardstick[key] },
    targetMs: yardstick[key] * target,
  }));
}
