// Commands against the number of installed plugins (engine.md X10), over generated stores
// (bench/scale-store.mjs): `hookpm run` (PreToolUse, no handler matching) with 2,000 installed
// plugins next to 20, target 1.25x; `hookpm list --json` and one more `hookpm install` of a local
// plugin with 5,000 installed next to 10, target 1.5x. Each install is undone (untimed) before
// the next. Medians of interleaved runs, CPU time (bench/cpu-preload.cjs) and wall time.
// SCALE_ONLY (a comma-separated list of run, list, install) measures only those. `list --json`
// prints the document it kept (registry.md S33) from the first timed round on: the warm-up round
// makes it; docs/design/benchmarks.md gives the first call after a change beside it.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scaleStore } from './scale-store.mjs';
import { BIN, compared, medians, timeRun } from './scale-measure.mjs';

const RUNS = Number(process.env.SCALE_RUNS ?? 11);
const ONLY = new Set((process.env.SCALE_ONLY ?? 'run,list,install').split(','));

async function extraPlugin(root) {
  const dir = join(root, 'extra');
  await mkdir(join(dir, 'hooks'), { recursive: true });
  await writeFile(
    join(dir, 'plugin.json'),
    JSON.stringify({ name: 'scale-extra', version: '1.0.0' }),
  );
  const hooks = {
    PreToolUse: [{ matcher: 'Extra', hooks: [{ type: 'command', command: 'true' }] }],
  };
  await writeFile(join(dir, 'hooks', 'hooks.json'), JSON.stringify({ hooks }));
  return dir;
}

export default async function bench() {
  const root = await mkdtemp(join(tmpdir(), 'hookpm-bench-scale-'));
  try {
    const homes = {};
    const counts = [
      ...(ONLY.has('run') ? [20, 2000] : []),
      ...(ONLY.has('list') || ONLY.has('install') ? [10, 5000] : []),
    ];
    for (const count of counts) homes[count] = await scaleStore(count);
    const env = (count) => ({
      ...process.env,
      HOME: root,
      HOOKPM_HOME: homes[count],
      NO_COLOR: '1',
    });
    const payload = join(root, 'payload.json');
    await writeFile(payload, JSON.stringify({ tool_name: 'NoSuchTool', tool_input: {} }));
    const extra = await extraPlugin(root);
    const node = process.execPath;
    const run = (count) =>
      timeRun(
        node,
        [BIN, 'run', 'PreToolUse', '--payload', payload, '--json'],
        env(count),
        '',
        root,
      );
    const list = (count) => timeRun(node, [BIN, 'list', '--json'], env(count));
    const install = (count) => {
      const timed = timeRun(node, [BIN, 'install', extra, '--yes'], env(count));
      timeRun(node, [BIN, 'uninstall', 'scale-extra'], env(count));
      return timed;
    };
    const measures = {
      run: [
        ['run20', () => run(20)],
        ['run2000', () => run(2000)],
      ],
      list: [
        ['list10', () => list(10)],
        ['list5000', () => list(5000)],
      ],
      install: [
        ['install10', () => install(10)],
        ['install5000', () => install(5000)],
      ],
    };
    const chosen = Object.entries(measures).flatMap(([what, pair]) => (ONLY.has(what) ? pair : []));
    const runs = Object.fromEntries(chosen.map(([k]) => [k, []]));
    for (let i = 0; i < RUNS + 1; i += 1) {
      // Alternating sides: the larger store first in every other round.
      const order = i % 2 === 0 ? chosen : [...chosen].reverse();
      const round = order.map(([k, measure]) => [k, measure()]);
      if (i === 0) continue;
      for (const [k, v] of round) runs[k].push(v);
    }
    const m = Object.fromEntries(Object.entries(runs).map(([k, v]) => [k, medians(v)]));
    const results = [];
    if (ONLY.has('run'))
      results.push(
        ...compared(
          'scale: hookpm run, 2,000 installed plugins vs 20, none matching',
          1.25,
          m.run2000,
          m.run20,
          '20 plugins',
        ),
      );
    if (ONLY.has('list'))
      results.push(
        ...compared(
          'scale: hookpm list --json, 5,000 installed plugins vs 10',
          1.5,
          m.list5000,
          m.list10,
          '10 plugins',
        ),
      );
    if (ONLY.has('install'))
      results.push(
        ...compared(
          'scale: one more hookpm install, 5,000 installed plugins vs 10',
          1.5,
          m.install5000,
          m.install10,
          '10 plugins',
        ),
      );
    return results;
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
