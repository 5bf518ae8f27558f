// security.md Z4: what confinement costs. `hookpm run PreToolUse --payload <file> --json` with one
// enabled plugin whose one handler is `true`, matched by the payload: the plugin declaring
// capabilities ({"network": false, "write": []}, so the handler runs under bubblewrap) next to the
// same plugin declaring none, alternating (which goes first alternates by round), on the Node that
// runs the benchmarks and on Node 24 LTS (test/tools/node-24.mjs). Each figure twice: the wall time
// (median) and the CPU time, user + system, of the whole process tree of a run (hookpm, bwrap and
// the handler: the reaped children's times in /proc/self/stat, counted in 10 ms ticks, so the mean
// of the runs rather than a median of ticks), steadier than the wall time on a shared machine. The
// load average before and after each Node's runs is part of the result's name. Target: confined
// within 1.2x of unconfined. Needs Linux and bubblewrap (`bwrap`) on PATH. Uses the built code
// (bin/ and dist/); the runs start once the installed files are older than the fingerprint cache's
// racy window (2 s). CONFINE_RUNS sets the number of measured rounds.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { installPlugins } from '../dist/ops/install/install.js';
import { resolveStorePaths } from '../dist/store/paths.js';
import { node24, NODE_24_VERSION } from '../test/tools/node-24.mjs';
import { median } from './measure.mjs';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(REPO, 'bin', 'hookpm.js');
const RUNS = Number(process.env.CONFINE_RUNS ?? 31);
const TICK_MS = 10;
const WARMUP = 3;
const RATIO_TARGET = 1.2;
const RACY_WAIT_MS = 2500;

/** A store under `root` with one plugin whose one PreToolUse handler is `true`. */
async function setUpStore(root, capabilities) {
  const dir = join(root, 'src', 'p');
  await mkdir(join(dir, 'hooks'), { recursive: true });
  const manifest = {
    name: 'bench-confine',
    version: '1.0.0',
    ...(capabilities ? { capabilities } : {}),
  };
  await writeFile(join(dir, 'plugin.json'), JSON.stringify(manifest));
  const hooks = {
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'true' }] }] },
  };
  await writeFile(join(dir, 'hooks', 'hooks.json'), JSON.stringify(hooks));
  const paths = resolveStorePaths({ HOOKPM_HOME: join(root, 'home') });
  await installPlugins(
    { paths },
    { specs: [dir], cwd: root, enable: 'yes', force: false, dryRun: false },
  );
  await mkdir(join(root, 'project'), { recursive: true });
  await writeFile(
    join(root, 'payload.json'),
    JSON.stringify({ tool_name: 'Bash', tool_input: { command: 'ls' } }),
  );
  return { HOME: root, HOOKPM_HOME: join(root, 'home') };
}

/**
 * User + system milliseconds of this process's reaped children so far (`cutime` + `cstime` of
 * /proc/self/stat, fields 16 and 17, in clock ticks of 10 ms): a child's figure includes those of
 * every descendant it reaped, so one run's difference is its whole process tree.
 */
function childrenCpuMs() {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) * TICK_MS;
}

function timeRun(node, root, env, check) {
  const args = [BIN, 'run', 'PreToolUse', '--payload', join(root, 'payload.json'), '--json'];
  const cpuBefore = childrenCpuMs();
  const start = performance.now();
  const child = spawnSync(node, args, {
    cwd: join(root, 'project'),
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const ms = performance.now() - start;
  const cpu = childrenCpuMs() - cpuBefore;
  if (child.status !== 0) throw new Error(`hookpm run exited ${child.status}: ${child.stderr}`);
  if (check) {
    const result = JSON.parse(child.stdout.toString('utf8'));
    if (
      result.runs.length !== 1 ||
      result.runs[0].exitCode !== 0 ||
      result.diagnostics.length !== 0
    )
      throw new Error(`Assertion failed: the handler did not run cleanly: ${child.stdout}`);
  }
  return { ms, cpu };
}

const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;

/** Both stores on one Node, alternating (which goes first alternates), after warm-up rounds. */
function measure(node, stores) {
  const runs = { open: [], confined: [] };
  const loadBefore = loadavg()[0];
  for (let round = 0; round < WARMUP + RUNS; round += 1) {
    const order = round % 2 === 0 ? ['open', 'confined'] : ['confined', 'open'];
    for (const which of order) {
      const { root, env } = stores[which];
      const run = timeRun(node, root, env, round === 0);
      if (round >= WARMUP) runs[which].push(run);
    }
  }
  const load = `load ${loadBefore.toFixed(1)}-${loadavg()[0].toFixed(1)}`;
  const of = (which) => ({
    ms: median(runs[which].map((r) => r.ms)),
    cpu: mean(runs[which].map((r) => r.cpu)),
  });
  return { load, open: of('open'), confined: of('confined') };
}

export default async function bench() {
  const base = await mkdtemp(join(tmpdir(), 'hookpm-bench-confine-'));
  try {
    const stores = {};
    for (const [which, capabilities] of [
      ['open', null],
      ['confined', { network: false, write: [] }],
    ]) {
      const root = join(base, which);
      const dirs = await setUpStore(root, capabilities);
      stores[which] = { root, env: { ...process.env, ...dirs, NO_COLOR: '1' } };
    }
    await setTimeout(RACY_WAIT_MS);
    const results = [];
    const nodes = [[`node ${process.versions.node}`, process.execPath]];
    if (process.versions.node !== NODE_24_VERSION)
      nodes.push([`node ${NODE_24_VERSION}`, node24()]);
    for (const [label, node] of nodes) {
      const m = measure(node, stores);
      for (const [what, key] of [
        ['wall, median', 'ms'],
        ['CPU of the process tree, mean', 'cpu'],
      ])
        results.push({
          name: `confine (${label}, ${what}, ${m.load}): hookpm run, one \`true\` handler confined (bwrap) vs unconfined (target <= ${RATIO_TARGET}x)`,
          valueMs: m.confined[key],
          yardstick: { name: 'unconfined', valueMs: m.open[key] },
          targetMs: m.open[key] * RATIO_TARGET,
          ratio: Number((m.confined[key] / m.open[key]).toFixed(3)),
        });
    }
    return results;
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}
