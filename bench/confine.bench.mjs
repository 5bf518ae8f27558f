// security.md Z4: what confinement costs. `hookpm run PreToolUse --payload <file> --json` with one
// enabled plugin whose one handler is `true`, matched by the payload: the plugin declaring
// capabilities ({"network": false, "write": []}, so the handler runs under bubblewrap) next to the
// same plugin declaring none, as medians of interleaved runs, on the Node that runs the benchmarks
// and on Node 24 LTS (test/tools/node-24.mjs). Target: confined within 1.2x of unconfined. Needs
// bubblewrap (`bwrap`) on PATH. Uses the built code (bin/ and dist/); the runs start once the
// installed files are older than the fingerprint cache's racy window (2 s).
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { installPlugins } from '../dist/ops/install/install.js';
import { resolveStorePaths } from '../dist/store/paths.js';
import { node24, NODE_24_VERSION } from '../test/tools/node-24.mjs';
import { median } from './measure.mjs';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(REPO, 'bin', 'hookpm.js');
const RUNS = 31;
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

function timeRun(node, root, env, check) {
  const args = [BIN, 'run', 'PreToolUse', '--payload', join(root, 'payload.json'), '--json'];
  const start = performance.now();
  const child = spawnSync(node, args, {
    cwd: join(root, 'project'),
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const ms = performance.now() - start;
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
  return ms;
}

/** Both stores on one Node, interleaved (which goes first alternates), after warm-up rounds. */
function measure(node, stores) {
  const times = { open: [], confined: [] };
  for (let round = 0; round < WARMUP + RUNS; round += 1) {
    const order = round % 2 === 0 ? ['open', 'confined'] : ['confined', 'open'];
    for (const which of order) {
      const { root, env } = stores[which];
      const ms = timeRun(node, root, env, round === 0);
      if (round >= WARMUP) times[which].push(ms);
    }
  }
  return { open: median(times.open), confined: median(times.confined) };
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
      const measured = measure(node, stores);
      results.push({
        name: `run (${label}): one \`true\` handler confined (bwrap) vs unconfined`,
        valueMs: measured.confined,
        yardstick: { name: 'unconfined', valueMs: measured.open },
        targetMs: measured.open * RATIO_TARGET,
      });
    }
    return results;
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}
