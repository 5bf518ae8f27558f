// Commands against the number of installed plugins (engine.md X10), over generated stores
// (bench/scale-store.mjs): `hookpm run` (PreToolUse, no handler matching) with 2,000 installed
// plugins next to 20, target 1.25x; `hookpm list --json` and one more `hookpm install` of a local
// plugin with 5,000 installed next to 10, target 1.5x. After each install `list --json` is timed
// once more: the first call after a change, which makes the row of the new entry and keeps the
// rest (registry.md S33); then the install is undone (untimed). Medians of runs interleaving the two sides of one measure
// (the measures one after the other, so that no install changes the store under the repeated
// `list`), CPU time (bench/cpu-preload.cjs) and wall time. SCALE_ONLY (a comma-separated list of
// run, list, install) measures only those. The repeated `list --json` prints the document it kept
// (S33) from the first timed round on: the warm-up round makes it.
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
    /** One more install (timed), the first `list` after it (timed), then the install undone (untimed). */
    const install = (count) => {
      const timed = timeRun(node, [BIN, 'install', extra, '--yes'], env(count));
      const first = list(count);
      timeRun(node, [BIN, 'uninstall', 'scale-extra'], env(count));
      return { install: timed, first };
    };
    const measures = {
      run: { 20: () => ({ run: run(20) }), 2000: () => ({ run: run(2000) }) },
      list: { 10: () => ({ list: list(10) }), 5000: () => ({ list: list(5000) }) },
      install: { 10: () => install(10), 5000: () => install(5000) },
    };
    /** Timings by what was timed and the store's size: runs.list[5000] holds every round's. */
    const runs = {};
    for (const [what, sides] of Object.entries(measures)) {
      if (!ONLY.has(what)) continue;
      const counts = Object.keys(sides);
      for (let i = 0; i < RUNS + 1; i += 1) {
        // Alternating sides: the larger store first in every other round.
        for (const count of i % 2 === 0 ? counts : [...counts].reverse()) {
          const timed = sides[count]();
          if (i === 0) continue;
          for (const [key, value] of Object.entries(timed))
            ((runs[key] ??= {})[count] ??= []).push(value);
        }
      }
    }
    const m = (key, count) => medians(runs[key][count]);
    const results = [];
    if (ONLY.has('run'))
      results.push(
        ...compared(
          'scale: hookpm run, 2,000 installed plugins vs 20, none matching',
          1.25,
          m('run', 2000),
          m('run', 20),
          '20 plugins',
        ),
      );
    if (ONLY.has('list'))
      results.push(
        ...compared(
          'scale: hookpm list --json, 5,000 installed plugins vs 10',
          1.5,
          m('list', 5000),
          m('list', 10),
          '10 plugins',
        ),
      );
    if (ONLY.has('install'))
      results.push(
        ...compared(
          'scale: one more hookpm install, 5,000 installed plugins vs 10',
          1.5,
          m('install', 5000),
          m('install', 10),
          '10 plugins',
        ),
        ...compared(
          'scale: hookpm list --json, first after a change, 5,000 installed plugins vs 10',
          1.5,
          m('first', 5000),
          m('first', 10),
          '10 plugins',
        ),
      );
    return results;
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
