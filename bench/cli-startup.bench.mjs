// `hookpm --version` and `hookpm list --json` with 20 installed plugins, each next to a bare
// `node -e 0` start of the same Node, as medians of interleaved runs, on the Node that runs the
// benchmarks and on Node 24 LTS (test/tools/node-24.mjs). Uses the built code (bin/ and dist/); a
// first untimed run of each fills the compile cache where Node has one.
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installPlugins } from '../dist/ops/install/install.js';
import { resolveStorePaths } from '../dist/store/paths.js';
import { node24, NODE_24_VERSION } from '../test/tools/node-24.mjs';
import { median } from './measure.mjs';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(REPO, 'bin', 'hookpm.js');
const PLUGINS = 20;
const RUNS = 21;
/**
 * The targets: list within 1.4x of a bare start on Node 20 and 1.6x on Node 24, where a bare start
 * is about 20 ms rather than 55 (Node 20 reads NODE_EXTRA_CA_CERTS's file as it starts).
 */
const TARGETS = { 20: { version: 1.2, list: 1.4 }, 24: { version: 1.3, list: 1.6 } };

/** Tiny plugin directories installed in one transaction into a fresh HOOKPM_HOME. */
async function setUpStore(root) {
  const specs = [];
  for (let i = 0; i < PLUGINS; i += 1) {
    const dir = join(root, 'src', `p${i}`);
    await mkdir(join(dir, 'hooks'), { recursive: true });
    await writeFile(
      join(dir, 'plugin.json'),
      JSON.stringify({ name: `bench-plugin-${i}`, version: '1.0.0' }),
    );
    const hooks = {
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `echo ${i}` }] }],
      },
    };
    await writeFile(join(dir, 'hooks', 'hooks.json'), JSON.stringify(hooks));
    specs.push(dir);
  }
  const paths = resolveStorePaths({ HOOKPM_HOME: join(root, 'home') });
  await installPlugins({ paths }, { specs, cwd: root, enable: 'yes', force: false, dryRun: false });
}

function timeRun(node, args, env) {
  const start = performance.now();
  const child = spawnSync(node, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const ms = performance.now() - start;
  if (child.status !== 0)
    throw new Error(`${args.join(' ')} exited ${child.status}: ${child.stderr}`);
  return { ms, stdout: child.stdout.toString('utf8') };
}

/** The three starts on one Node, interleaved, after two warm-up rounds (file-system caches). */
function measure(node, env) {
  const listed = JSON.parse(timeRun(node, [BIN, 'list', '--json'], env).stdout);
  if (listed.plugins.length !== PLUGINS)
    throw new Error(`list shows ${listed.plugins.length} plugins, not ${PLUGINS}`);
  const times = { node: [], version: [], list: [] };
  for (let i = 0; i < RUNS + 2; i += 1) {
    const bare = timeRun(node, ['-e', '0'], env).ms;
    const version = timeRun(node, [BIN, '--version'], env).ms;
    const list = timeRun(node, [BIN, 'list', '--json'], env).ms;
    if (i < 2) continue;
    times.node.push(bare);
    times.version.push(version);
    times.list.push(list);
  }
  return { node: median(times.node), version: median(times.version), list: median(times.list) };
}

export default async function bench() {
  const root = await mkdtemp(join(tmpdir(), 'hookpm-bench-cli-'));
  try {
    await setUpStore(root);
    const env = { ...process.env, HOME: root, HOOKPM_HOME: join(root, 'home'), NO_COLOR: '1' };
    const results = [];
    for (const [label, node, targets] of [
      [`node ${process.versions.node}`, process.execPath, TARGETS[20]],
      [`node ${NODE_24_VERSION}`, node24(), TARGETS[24]],
    ]) {
      const measured = measure(node, env);
      const yardstick = { name: 'node -e 0', valueMs: measured.node };
      results.push(
        {
          name: `cli (${label}): hookpm --version (target <= ${targets.version}x node start)`,
          valueMs: measured.version,
          yardstick,
          targetMs: measured.node * targets.version,
        },
        {
          name: `cli (${label}): list --json, ${PLUGINS} plugins (target <= ${targets.list}x)`,
          valueMs: measured.list,
          yardstick,
          targetMs: measured.node * targets.list,
        },
      );
    }
    return results;
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
