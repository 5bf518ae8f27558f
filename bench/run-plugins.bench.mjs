// Issue: a snapshot must not re-read every plugin file at every event. `hookpm run PreToolUse
// --payload <file> --json` on a store of 200 enabled plugins next to the same run on a store of 20,
// as medians of interleaved runs, on the Node that runs the benchmarks and on Node 24 LTS
// (test/tools/node-24.mjs). Every plugin has a manifest, a hooks document with one `Bash` group
// and a script; the payload's tool matches none, so the run is load + match, no handler process.
// Target: 200 plugins within 1.3x of 20. Uses the built code (bin/ and dist/). The runs start once
// the installed files are older than the fingerprint cache's racy window (2 s), as installed
// plugins are; untimed runs first fill the code, fingerprint and documents caches.
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
const FEW = 20;
const MANY = 200;
const RUNS = 31;
const WARMUP = 3;
const RATIO_TARGET = 1.3;
const RACY_WAIT_MS = 2500;

/** `count` small plugin directories under `root`/src, installed and enabled into `root`/home. */
async function setUpStore(root, count) {
  const specs = [];
  for (let i = 0; i < count; i += 1) {
    const dir = join(root, 'src', `p${i}`);
    await mkdir(join(dir, 'hooks'), { recursive: true });
    await mkdir(join(dir, 'scripts'), { recursive: true });
    await writeFile(
      join(dir, 'plugin.json'),
      JSON.stringify({ name: `bench-plugin-${i}`, version: '1.0.0' }),
    );
    const command = '"${CLAUDE_PLUGIN_ROOT}/scripts/check.sh"';
    const hooks = {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command }] }] },
    };
    await writeFile(join(dir, 'hooks', 'hooks.json'), JSON.stringify(hooks, null, 2));
    await writeFile(join(dir, 'scripts', 'check.sh'), `#!/bin/sh\necho ${i}\n`, { mode: 0o755 });
    specs.push(dir);
  }
  const paths = resolveStorePaths({ HOOKPM_HOME: join(root, 'home') });
  await installPlugins({ paths }, { specs, cwd: root, enable: 'yes', force: false, dryRun: false });
  await mkdir(join(root, 'project'), { recursive: true });
  await writeFile(
    join(root, 'payload.json'),
    JSON.stringify({ tool_name: 'NoSuchTool', tool_input: {} }),
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
    if (result.runs.length !== 0 || result.diagnostics.length !== 0)
      throw new Error(`Assertion failed: ${child.stdout}`);
  }
  return ms;
}

/** Both stores on one Node, interleaved (which goes first alternates), after warm-up rounds. */
function measure(node, stores) {
  const times = { few: [], many: [] };
  for (let round = 0; round < WARMUP + RUNS; round += 1) {
    const order = round % 2 === 0 ? ['few', 'many'] : ['many', 'few'];
    for (const which of order) {
      const { root, env } = stores[which];
      const ms = timeRun(node, root, env, round === 0);
      if (round >= WARMUP) times[which].push(ms);
    }
  }
  return { few: median(times.few), many: median(times.many) };
}

export default async function bench() {
  const base = await mkdtemp(join(tmpdir(), 'hookpm-bench-run-'));
  try {
    const stores = {};
    for (const [which, count] of [
      ['few', FEW],
      ['many', MANY],
    ]) {
      const root = join(base, which);
      const dirs = await setUpStore(root, count);
      stores[which] = { root, env: { ...process.env, ...dirs, NO_COLOR: '1' } };
    }
    await setTimeout(RACY_WAIT_MS);
    const results = [];
    const nodes = [[`node ${process.versions.node}`, process.execPath]];
    // Under Node 24 itself (`npm run bench:node24`), once.
    if (process.versions.node !== NODE_24_VERSION)
      nodes.push([`node ${NODE_24_VERSION}`, node24()]);
    for (const [label, node] of nodes) {
      const measured = measure(node, stores);
      const perPluginMs = (measured.many - measured.few) / (MANY - FEW);
      results.push({
        name: `run (${label}): no match, ${MANY} plugins (${(perPluginMs * 1000).toFixed(0)} µs/plugin) vs ${FEW}`,
        valueMs: measured.many,
        yardstick: { name: `${FEW} plugins`, valueMs: measured.few },
        targetMs: measured.few * RATIO_TARGET,
      });
    }
    return results;
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}
