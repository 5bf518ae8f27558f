// Install benchmarks, on the built code (bin/ and dist/), medians of interleaved
// runs, both tools against the same loopback registry (`hookpm registry serve`) with warm caches:
// 1. `hookpm install guard@bench --yes` next to `npm install <the same tarball URL>` into an empty
//    folder (target: at most 0.25 of npm's time), and next to `node -e 0` (target: at most 1.6x);
//    before each timed hookpm run the plugin is uninstalled (untimed), so its cached tarball is
//    reused the way npm reuses its cache;
// 2. installing 100 plugins in one command into an empty store (target: under 5 s);
// 3. `hookpm registry update bench`, one conditional request, next to `node -e 0` (a house target,
//    at most 2.5x: a command that goes to the network must not wait at its end for V8 to optimise
//    undici's WebAssembly HTTP parser, which costs ~90 ms; src/cli/wasm-tier-up.ts).
import { spawn, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './measure.mjs';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(REPO, 'bin', 'hookpm.js');
// Medians of this many interleaved runs: single runs vary by several ms on a shared machine.
const RUNS = 15;
const BULK = 100;

/** A plugin directory that is also an npm package (package.json), so npm can install its tarball. */
async function writePlugin(root, name) {
  const dir = join(root, 'plugins', name);
  await mkdir(join(dir, 'hooks'), { recursive: true });
  await mkdir(join(dir, 'scripts'), { recursive: true });
  await writeFile(join(dir, 'plugin.json'), JSON.stringify({ name, version: '1.0.0' }));
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name, version: '1.0.0' }));
  await writeFile(join(dir, 'scripts', 'check.mjs'), 'process.exit(0);\n');
  const hooks = {
    hooks: {
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [{ type: 'command', command: 'node "${CLAUDE_PLUGIN_ROOT}/scripts/check.mjs"' }],
        },
      ],
    },
  };
  await writeFile(join(dir, 'hooks', 'hooks.json'), JSON.stringify(hooks));
}

function run(command, args, env, cwd) {
  const start = performance.now();
  const child = spawnSync(command, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  const ms = performance.now() - start;
  if (child.status !== 0)
    throw new Error(`${command} ${args.join(' ')} exited ${child.status}: ${child.stderr}`);
  return ms;
}

const hookpm = (args, env) => run(process.execPath, [BIN, ...args], env, env.HOME);

/** `hookpm registry serve <dir> --json` as a child; resolves with its URL and a stop function. */
function serve(dir, env) {
  const child = spawn(process.execPath, [BIN, 'registry', 'serve', dir, '--json', '--quiet'], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.on('exit', (code) => reject(new Error(`registry serve exited ${code}`)));
    child.stdout.on('data', (chunk) => {
      out += chunk;
      try {
        const { url } = JSON.parse(out);
        child.removeAllListeners('exit');
        resolve({ url, stop: () => child.kill('SIGTERM') });
      } catch {
        // Not a whole JSON document yet.
      }
    });
  });
}

export default async function bench() {
  const root = await mkdtemp(join(tmpdir(), 'hookpm-bench-install-'));
  let server;
  try {
    await writePlugin(root, 'guard');
    for (let i = 0; i < BULK; i += 1) await writePlugin(root, `bulk-${i}`);
    const env = { ...process.env, HOME: root, HOOKPM_HOME: join(root, 'home'), NO_COLOR: '1' };
    hookpm(['registry', 'build', join(root, 'plugins'), '--out', join(root, 'registry')], env);
    server = await serve(join(root, 'registry'), env);
    hookpm(['registry', 'remove', 'examples'], env);
    hookpm(['registry', 'add', 'bench', server.url], env);
    const npmEnv = {
      ...env,
      npm_config_cache: join(root, 'npm-cache'),
      npm_config_update_notifier: 'false',
    };
    const tarball = `${server.url}tarballs/guard-1.0.0.tgz`;
    const npmArgs = [
      'install',
      tarball,
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
      '--prefer-offline',
    ];
    const times = { node: [], hookpm: [], npm: [] };
    for (let i = 0; i < RUNS + 2; i += 1) {
      const folder = join(root, `npm-${i}`);
      await mkdir(folder);
      const npm = run('npm', npmArgs, npmEnv, folder);
      const node = run(process.execPath, ['-e', '0'], env, root);
      const installed = hookpm(['install', 'guard@bench', '--yes'], env);
      hookpm(['uninstall', 'guard'], env);
      if (i < 2) continue; // warm-up: both caches and the file-system cache
      times.npm.push(npm);
      times.node.push(node);
      times.hookpm.push(installed);
    }
    const updates = [];
    const updateNode = [];
    for (let i = 0; i < RUNS + 2; i += 1) {
      const node = run(process.execPath, ['-e', '0'], env, root);
      const updated = hookpm(['registry', 'update', 'bench'], env);
      if (i < 2) continue;
      updateNode.push(node);
      updates.push(updated);
    }
    const specs = Array.from({ length: BULK }, (_, i) => `bulk-${i}@bench`);
    const bulk = [];
    for (let i = 0; i < 3; i += 1) {
      const bulkEnv = { ...env, HOOKPM_HOME: join(root, `bulk-home-${i}`) };
      hookpm(['registry', 'remove', 'examples'], bulkEnv);
      hookpm(['registry', 'add', 'bench', server.url], bulkEnv);
      bulk.push(hookpm(['install', ...specs, '--yes'], bulkEnv));
    }
    const one = median(times.hookpm);
    const npm = median(times.npm);
    const node = median(times.node);
    return [
      {
        name: 'install 1 plugin (loopback registry) vs npm install',
        valueMs: one,
        yardstick: { name: 'npm install', valueMs: npm },
        targetMs: 0.25 * npm,
      },
      {
        name: 'install 1 plugin (loopback registry) vs node -e 0',
        valueMs: one,
        yardstick: { name: 'node -e 0', valueMs: node },
        targetMs: 1.6 * node,
      },
      {
        name: 'registry update, one request (target <= 2.5x node -e 0)',
        valueMs: median(updates),
        yardstick: { name: 'node -e 0', valueMs: median(updateNode) },
        targetMs: 2.5 * median(updateNode),
      },
      {
        name: `install ${BULK} plugins in one command (empty store)`,
        valueMs: median(bulk),
        yardstick: { name: '5 s', valueMs: 5000 },
        targetMs: 5000,
      },
    ];
  } finally {
    server?.stop();
    await rm(root, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await bench())
    console.log(r.name, r.valueMs.toFixed(1), r.yardstick.name, r.yardstick.valueMs.toFixed(1));
}
