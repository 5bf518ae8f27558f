// Issue 5 acceptance: `hookpm --version` and `hookpm list --json` with 100 installed plugins, each
// next to a bare `node -e 0` start, as medians of interleaved runs. Targets: version at most 1.2x
// and list at most 1.4x the bare node start. Uses the built code (bin/ and dist/).
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installPlugins } from '../dist/ops/install/install.js';
import { resolveStorePaths } from '../dist/store/paths.js';
import { median } from './measure.mjs';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(REPO, 'bin', 'hookpm.js');
const PLUGINS = 100;
const RUNS = 21;

/** 100 tiny plugin directories installed in one transaction into a fresh HOOKPM_HOME. */
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

function timeRun(args, env) {
  const start = performance.now();
  const child = spawnSync(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const ms = performance.now() - start;
  if (child.status !== 0)
    throw new Error(`${args.join(' ')} exited ${child.status}: ${child.stderr}`);
  return { ms, stdout: child.stdout.toString('utf8') };
}

export default async function bench() {
  const root = await mkdtemp(join(tmpdir(), 'hookpm-bench-cli-'));
  try {
    await setUpStore(root);
    const env = { ...process.env, HOME: root, HOOKPM_HOME: join(root, 'home'), NO_COLOR: '1' };
    const listed = JSON.parse(timeRun([BIN, 'list', '--json'], env).stdout);
    if (listed.plugins.length !== PLUGINS)
      throw new Error(`list shows ${listed.plugins.length} plugins, not ${PLUGINS}`);
    const times = { node: [], version: [], list: [] };
    for (let i = 0; i < RUNS + 2; i += 1) {
      const node = timeRun(['-e', '0'], env).ms;
      const version = timeRun([BIN, '--version'], env).ms;
      const list = timeRun([BIN, 'list', '--json'], env).ms;
      if (i < 2) continue; // warm-up: file-system caches
      times.node.push(node);
      times.version.push(version);
      times.list.push(list);
    }
    const node = median(times.node);
    const yardstick = { name: 'node -e 0', valueMs: node };
    return [
      {
        name: 'cli: hookpm --version (target <= 1.2x node start)',
        valueMs: median(times.version),
        yardstick,
        targetMs: node * 1.2,
      },
      {
        name: `cli: hookpm list --json, ${PLUGINS} plugins (target <= 1.4x)`,
        valueMs: median(times.list),
        yardstick,
        targetMs: node * 1.4,
      },
    ];
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
