// A linked agent event, `hookpm wire claude` as the agent runs it (stdin payload, the session
// pinned by its SessionStart), with 20 enabled plugins none of whose handlers match: hookpm's own
// cost, next to a bare `node -e 0` of the same Node; and the same event with 200 enabled plugins
// next to 20 (X10). Medians of interleaved runs, on the Node running the benchmarks and on Node 24
// LTS (test/tools/node-24.mjs). Uses the built code (bin/ and dist/).
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
const RUNS = 21;
const TARGET_VS_NODE = 1.5;
const TARGET_200_VS_20 = 1.3;

/** `count` small plugins (a manifest, a hooks document, a script) installed into `home`. */
async function setUpStore(root, home, count) {
  const specs = [];
  for (let i = 0; i < count; i += 1) {
    const dir = join(root, `src-${count}`, `p${i}`);
    await mkdir(join(dir, 'hooks'), { recursive: true });
    await mkdir(join(dir, 'scripts'), { recursive: true });
    await writeFile(
      join(dir, 'plugin.json'),
      JSON.stringify({ name: `bench-plugin-${i}`, version: '1.0.0' }),
    );
    await writeFile(join(dir, 'scripts', 'check.sh'), `#!/bin/sh\necho ${i}\n`);
    const command = 'sh "${CLAUDE_PLUGIN_ROOT}/scripts/check.sh"';
    const hooks = {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command }] }] },
    };
    await writeFile(join(dir, 'hooks', 'hooks.json'), JSON.stringify(hooks));
    specs.push(dir);
  }
  const paths = resolveStorePaths({ HOOKPM_HOME: home });
  await installPlugins({ paths }, { specs, cwd: root, enable: 'yes', force: false, dryRun: false });
}

const payload = (event, extra) =>
  JSON.stringify({
    session_id: 'bench-session',
    transcript_path: '/tmp/t.jsonl',
    cwd: REPO,
    hook_event_name: event,
    ...extra,
  });
const START = payload('SessionStart', { source: 'startup' });
const EVENT = payload('PreToolUse', { tool_name: 'NoSuchTool', tool_input: {}, tool_use_id: 't' });

function timeRun(node, args, env, input) {
  const start = performance.now();
  const child = spawnSync(node, args, { env, input, stdio: ['pipe', 'pipe', 'pipe'] });
  const ms = performance.now() - start;
  if (child.status !== 0)
    throw new Error(`${args.join(' ')} exited ${child.status}: ${child.stderr}`);
  return { ms, stdout: child.stdout.toString('utf8') };
}

function measure(node, envs) {
  for (const env of Object.values(envs))
    timeRun(
      node,
      [BIN, 'wire', 'claude', '--deadline', '600', '--home', env.HOOKPM_HOME],
      env,
      START,
    );
  const times = { node: [], p20: [], p200: [] };
  for (let i = 0; i < RUNS + 2; i += 1) {
    const bare = timeRun(node, ['-e', '0'], envs.p20, '').ms;
    const p20 = timeRun(
      node,
      [BIN, 'wire', 'claude', '--deadline', '600', '--home', envs.p20.HOOKPM_HOME],
      envs.p20,
      EVENT,
    );
    const p200 = timeRun(
      node,
      [BIN, 'wire', 'claude', '--deadline', '600', '--home', envs.p200.HOOKPM_HOME],
      envs.p200,
      EVENT,
    );
    if (p20.stdout !== '' || p200.stdout !== '')
      throw new Error(`a handler matched: ${p20.stdout}${p200.stdout}`);
    if (i < 2) continue;
    times.node.push(bare);
    times.p20.push(p20.ms);
    times.p200.push(p200.ms);
  }
  return { node: median(times.node), p20: median(times.p20), p200: median(times.p200) };
}

export default async function bench() {
  const root = await mkdtemp(join(tmpdir(), 'hookpm-bench-link-'));
  try {
    const envs = {};
    for (const count of [20, 200]) {
      const home = join(root, `home-${count}`);
      await setUpStore(root, home, count);
      envs[`p${count}`] = { ...process.env, HOME: root, HOOKPM_HOME: home, NO_COLOR: '1' };
    }
    const results = [];
    for (const [label, node] of [
      [`node ${process.versions.node}`, process.execPath],
      [`node ${NODE_24_VERSION}`, node24()],
    ]) {
      const m = measure(node, envs);
      results.push(
        {
          name: `link (${label}): wire claude, 20 plugins, none match (target <= ${TARGET_VS_NODE}x node start)`,
          valueMs: m.p20,
          yardstick: { name: 'node -e 0', valueMs: m.node },
          targetMs: m.node * TARGET_VS_NODE,
        },
        {
          name: `link (${label}): wire claude, 200 plugins (target <= ${TARGET_200_VS_20}x 20 plugins)`,
          valueMs: m.p200,
          yardstick: { name: '20 plugins', valueMs: m.p20 },
          targetMs: m.p20 * TARGET_200_VS_20,
        },
      );
    }
    return results;
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
