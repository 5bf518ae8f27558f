// A linked agent event (`hookpm wire claude`, stdin payload, the session pinned by its
// SessionStart) against the number of installed plugins (engine.md X10): the same event with
// 2,000 installed plugins next to 20, none matching; and with one matching handler (`true` via
// argv) next to `node -e 0` plus one spawn of `true` (a Node process that spawns `true`). Each
// figure twice: the CPU time of the Node processes of a run (bench/cpu-preload.cjs), steadier
// on a shared machine, and the wall time. Generated stores (bench/scale-store.mjs),
// medians of interleaved runs (the order of the sides reversed every other round), on the Node
// running the benchmarks and on Node 24 LTS. SCALE_LINK=count or SCALE_LINK=match runs only that
// measure (SCALE_RUNS rounds, SCALE_NODE24=0 for the first Node only).
import { node24, NODE_24_VERSION } from '../test/tools/node-24.mjs';
import { median } from './measure.mjs';
import { BIN, REPO, timeRun } from './scale-measure.mjs';
import { scaleStore } from './scale-store.mjs';
const RUNS = Number(process.env.SCALE_RUNS ?? 21);
const TARGET_2000_VS_20 = 1.15;
const TARGET_MATCH_VS_NODE = 1.3;
const SESSION = '0b6f3a52-9d2e-4c1a-8f7e-5a4b3c2d1e0f';

const payload = (event, extra) =>
  JSON.stringify({
    session_id: SESSION,
    transcript_path: '/tmp/t.jsonl',
    cwd: REPO,
    hook_event_name: event,
    ...extra,
  });
const START = payload('SessionStart', { source: 'startup' });
const NONE = payload('PreToolUse', { tool_name: 'NoSuchTool', tool_input: {}, tool_use_id: 't' });
const ONE = payload('PreToolUse', {
  tool_name: 'Bash',
  tool_input: { command: 'ls' },
  tool_use_id: 't',
});

/** `node -e 0` plus one spawn of `true`: the yardstick of an event whose one handler is `true`. */
const SPAWN_TRUE = "require('node:child_process').spawn('true', { stdio: 'ignore' })";

const wireArgs = (home) => [BIN, 'wire', 'claude', '--deadline', '600', '--home', home];

/** The measures (SCALE_LINK): the sides each one runs. */
const MEASURES = { count: ['p20', 'p2000'], match: ['node', 'spawn', 'one'] };
const ONLY = process.env.SCALE_LINK;
if (ONLY !== undefined && !Object.hasOwn(MEASURES, ONLY))
  throw new Error(`SCALE_LINK=${ONLY}: expected one of ${Object.keys(MEASURES).join(', ')}`);

function measure(node, envs) {
  for (const env of Object.values(envs)) timeRun(node, wireArgs(env.HOOKPM_HOME), env, START);
  const side = {
    node: () => timeRun(node, ['-e', '0'], envs.p20, ''),
    spawn: () => timeRun(node, ['-e', SPAWN_TRUE], envs.p20, ''),
    p20: () => timeRun(node, wireArgs(envs.p20.HOOKPM_HOME), envs.p20, NONE),
    p2000: () => timeRun(node, wireArgs(envs.p2000.HOOKPM_HOME), envs.p2000, NONE),
    one: () => timeRun(node, wireArgs(envs.p20.HOOKPM_HOME), envs.p20, ONE),
  };
  const sides = ONLY === undefined ? Object.keys(side) : MEASURES[ONLY];
  const runs = Object.fromEntries(sides.map((k) => [k, []]));
  for (let i = 0; i < RUNS + 2; i += 1) {
    const order = i % 2 === 0 ? sides : [...sides].reverse();
    const round = Object.fromEntries(order.map((k) => [k, side[k]()]));
    for (const k of ['p20', 'p2000', 'one'])
      if (round[k] !== undefined && round[k].stdout !== '')
        throw new Error(`unexpected output of ${k}: ${round[k].stdout}`);
    if (i < 2) continue;
    for (const k of sides) runs[k].push(round[k]);
  }
  const of = (key) => ({
    ms: median(runs[key].map((r) => r.ms)),
    cpu: median(runs[key].map((r) => r.cpu)),
  });
  return Object.fromEntries(Object.keys(runs).map((k) => [k, of(k)]));
}

export default async function bench() {
  const envs = {};
  for (const count of ONLY === 'match' ? [20] : [20, 2000]) {
    const home = await scaleStore(count);
    envs[`p${count}`] = { ...process.env, HOME: home, HOOKPM_HOME: home, NO_COLOR: '1' };
  }
  const results = [];
  const nodes = [[`node ${process.versions.node}`, process.execPath]];
  if (process.env.SCALE_NODE24 !== '0') nodes.push([`node ${NODE_24_VERSION}`, node24()]);
  for (const [label, node] of nodes) {
    const m = measure(node, envs);
    for (const [what, key] of [
      ['CPU', 'cpu'],
      ['wall', 'ms'],
    ]) {
      if (ONLY !== 'match')
        results.push({
          name: `scale-link (${label}, ${what}): wire claude, 2,000 installed plugins vs 20, none matching (target <= ${TARGET_2000_VS_20}x)`,
          valueMs: m.p2000[key],
          yardstick: { name: '20 plugins', valueMs: m.p20[key] },
          targetMs: m.p20[key] * TARGET_2000_VS_20,
        });
      if (ONLY !== 'count')
        results.push({
          name: `scale-link (${label}, ${what}): wire claude, one matching \`true\` handler (target <= ${TARGET_MATCH_VS_NODE}x node start + spawn)`,
          valueMs: m.one[key],
          yardstick: { name: 'node spawning true', valueMs: m.spawn[key] },
          // 1.3x node's start, plus what the spawn adds to it.
          targetMs: m.node[key] * TARGET_MATCH_VS_NODE + (m.spawn[key] - m.node[key]),
        });
    }
  }
  return results;
}
