// What loading a project's plugins costs a `hookpm run`. The same 20 plugins run either as the
// user's plugins or as the project's (state.projects, found through the working directory's
// canonical project root), `hookpm run PreToolUse --payload <file> --json` in the project, as
// medians of interleaved runs on the Node that runs the benchmarks. The payload's tool matches
// none, so a run is load + match, no handler process. Target: project plugins within 1.1x of user
// plugins. Uses the built code (bin/ and dist/).
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { installPlugins } from '../dist/ops/install/install.js';
import { resolveStorePaths } from '../dist/store/paths.js';
import { median } from './measure.mjs';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(REPO, 'bin', 'hookpm.js');
const COUNT = 20;
const RUNS = 21;
const WARMUP = 3;
const RATIO_TARGET = 1.1;
const RACY_WAIT_MS = 2500;

/** A store of COUNT installed plugins; with `asProject`, its records moved to the project. */
async function setUpStore(root, asProject) {
  const specs = [];
  for (let i = 0; i < COUNT; i += 1) {
    const dir = join(root, 'src', `p${i}`);
    await mkdir(join(dir, 'hooks'), { recursive: true });
    await writeFile(
      join(dir, 'plugin.json'),
      JSON.stringify({ name: `bench-${i}`, version: '1.0.0' }),
    );
    const hooks = {
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'true' }] }] },
    };
    await writeFile(join(dir, 'hooks', 'hooks.json'), JSON.stringify(hooks));
    specs.push(dir);
  }
  const paths = resolveStorePaths({ HOOKPM_HOME: join(root, 'home') });
  await installPlugins({ paths }, { specs, cwd: root, enable: 'yes', force: false, dryRun: false });
  const project = join(root, 'project');
  await mkdir(join(project, '.git'), { recursive: true });
  if (asProject) {
    const file = join(root, 'home', 'data', 'state.json');
    const state = JSON.parse(await readFile(file, 'utf8'));
    state.projects = { [await realpath(project)]: { plugins: state.plugins } };
    state.plugins = {};
    await writeFile(file, `${JSON.stringify(state, null, 2)}\n`);
  }
  await writeFile(
    join(root, 'payload.json'),
    JSON.stringify({ tool_name: 'NoSuchTool', tool_input: {} }),
  );
  return { HOME: root, HOOKPM_HOME: join(root, 'home') };
}

function timeRun(root, env, check) {
  const args = [BIN, 'run', 'PreToolUse', '--payload', join(root, 'payload.json'), '--json'];
  const start = performance.now();
  const child = spawnSync(process.execPath, args, {
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

export default async function bench() {
  const base = await mkdtemp(join(tmpdir(), 'hookpm-bench-project-'));
  try {
    const stores = {};
    for (const which of ['user', 'project']) {
      const root = join(base, which);
      stores[which] = {
        root,
        env: { ...process.env, ...(await setUpStore(root, which === 'project')), NO_COLOR: '1' },
      };
    }
    await setTimeout(RACY_WAIT_MS);
    const times = { user: [], project: [] };
    for (let round = 0; round < WARMUP + RUNS; round += 1) {
      for (const which of round % 2 === 0 ? ['user', 'project'] : ['project', 'user']) {
        const ms = timeRun(stores[which].root, stores[which].env, round === 0);
        if (round >= WARMUP) times[which].push(ms);
      }
    }
    const user = median(times.user);
    return [
      {
        name: `run (node ${process.versions.node}): no match, ${COUNT} project plugins vs ${COUNT} user plugins`,
        valueMs: median(times.project),
        yardstick: { name: `${COUNT} user plugins`, valueMs: user },
        targetMs: user * RATIO_TARGET,
      },
    ];
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}
