// Commands against the number of installed plugins (engine.md X10), over generated stores
// (bench/scale-store.mjs): `hookpm run` (PreToolUse, no handler matching) with 2,000 installed
// plugins next to 20, target 1.25x; `hookpm list --json` and one more `hookpm install` of a local
// plugin with 5,000 installed next to 10, target 1.5x. Each install is undone (untimed) before
// the next. Medians of interleaved runs, CPU time (bench/cpu-preload.cjs) and wall time.
// SCALE_RUNS sets the number of rounds; SCALE_ONLY (below) measures some commands only.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scaleStore } from './scale-store.mjs';
import { BIN, compared, medians, timeRun } from './scale-measure.mjs';

const RUNS = Number(process.env.SCALE_RUNS ?? 11);
// SCALE_ONLY=run,list,install (a comma list): only those commands are measured.
const ONLY = process.env.SCALE_ONLY?.split(',');
const measured = (command) => ONLY === undefined || ONLY.includes(command);

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
    const counts = { run: [20, 2000], list: [10, 5000], install: [10, 5000] };
    for (const [command, sizes] of Object.entries(counts))
      if (measured(command)) for (const count of sizes) homes[count] ??= await scaleStore(count);
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
    const runs = {
      run20: [],
      run2000: [],
      list10: [],
      list5000: [],
      install10: [],
      install5000: [],
    };
    for (let i = 0; i < RUNS + 1; i += 1) {
      const round = {
        ...(measured('run') ? { run20: run(20), run2000: run(2000) } : {}),
        ...(measured('list') ? { list10: list(10), list5000: list(5000) } : {}),
        ...(measured('install') ? { install10: install(10), install5000: install(5000) } : {}),
      };
      if (i === 0) continue;
      for (const [k, v] of Object.entries(round)) runs[k].push(v);
    }
    const m = Object.fromEntries(
      Object.entries(runs)
        .filter(([, v]) => v.length > 0)
        .map(([k, v]) => [k, medians(v)]),
    );
    // A command left out by SCALE_ONLY has no rows.
    const maybe = (name, target, value, yardstick, yardstickName) =>
      value === undefined ? [] : compared(name, target, value, yardstick, yardstickName);
    return [
      ...maybe(
        'scale: hookpm run, 2,000 installed plugins vs 20, none matching',
        1.25,
        m.run2000,
        m.run20,
        '20 plugins',
      ),
      ...maybe(
        'scale: hookpm list --json, 5,000 installed plugins vs 10',
        1.5,
        m.list5000,
        m.list10,
        '10 plugins',
      ),
      ...maybe(
        'scale: one more hookpm install, 5,000 installed plugins vs 10',
        1.5,
        m.install5000,
        m.install10,
        '10 plugins',
      ),
    ];
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
