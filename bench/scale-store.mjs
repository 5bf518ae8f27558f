// The generated stores of the scale benchmarks (bench/scale-*.bench.mjs): a hookpm home with
// `count` installed, enabled and consented plugins, made once by a real install of local plugin
// directories (one `installPlugins` call per batch) and kept in a cache outside the checkout
// ($XDG_CACHE_HOME or ~/.cache, then hookpm-dev/), keyed by the count, GENERATOR (raise it when
// the plugins below change) and the hash of the sources that shape a store (the state schema,
// the install layout), so a change to them makes a new store. The store is used in place (its records name absolute paths): a benchmark may write
// its caches and pins there, never its plugins.
//
// Plugin 0 (`scale-match`) has one PreToolUse handler on `Bash` whose command is `true` (argv);
// every other plugin has a PreToolUse handler on a tool of its own (`Tool<i>`) and a PostToolUse
// handler, so an event on `Bash` matches one handler whatever the count, and one on `NoSuchTool`
// none.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const SHAPING = [
  'src/store/state/state-schema.ts',
  'src/store/layout.ts',
  'src/store/fingerprint.ts',
];
const GENERATOR = 1;
const BATCH = 500;

function cacheRoot() {
  const cache = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  const key = createHash('sha256').update(`scale-store/${GENERATOR}\n`);
  for (const file of SHAPING) key.update(readFileSync(join(REPO, file)));
  return join(cache, 'hookpm-dev', `scale-stores-${key.digest('hex').slice(0, 16)}`);
}

async function writePlugin(dir, i) {
  await mkdir(join(dir, 'hooks'), { recursive: true });
  await mkdir(join(dir, 'scripts'), { recursive: true });
  const name = i === 0 ? 'scale-match' : `scale-plugin-${i}`;
  await writeFile(join(dir, 'plugin.json'), JSON.stringify({ name, version: '1.0.0' }));
  await writeFile(join(dir, 'scripts', 'check.sh'), `#!/bin/sh\necho ${i}\n`);
  const command = 'sh "${CLAUDE_PLUGIN_ROOT}/scripts/check.sh"';
  const hooks =
    i === 0
      ? {
          PreToolUse: [
            { matcher: 'Bash', hooks: [{ type: 'command', command: 'true', argv: ['true'] }] },
          ],
        }
      : {
          PreToolUse: [{ matcher: `Tool${i}`, hooks: [{ type: 'command', command }] }],
          PostToolUse: [{ matcher: `Tool${i}`, hooks: [{ type: 'command', command }] }],
        };
  await writeFile(join(dir, 'hooks', 'hooks.json'), JSON.stringify({ hooks }));
}

/**
 * The home (HOOKPM_HOME) of a store with `count` installed plugins, made on first use. `dist/`
 * must be built.
 */
export async function scaleStore(count) {
  const root = cacheRoot();
  const home = join(root, `home-${count}`);
  if (existsSync(join(home, '.complete'))) return home;
  const { installPlugins } = await import('../dist/ops/install/install.js');
  const { resolveStorePaths } = await import('../dist/store/paths.js');
  // The store's records name its paths, so it is made where it stays; `.complete` marks it whole.
  const scratch = `${home}.sources-${process.pid}`;
  await rm(scratch, { recursive: true, force: true });
  await rm(home, { recursive: true, force: true });
  const paths = resolveStorePaths({ HOOKPM_HOME: home });
  for (let from = 0; from < count; from += BATCH) {
    const specs = [];
    for (let i = from; i < Math.min(count, from + BATCH); i += 1) {
      const dir = join(scratch, `p${i}`);
      await writePlugin(dir, i);
      specs.push(dir);
    }
    await installPlugins(
      { paths },
      { specs, cwd: scratch, enable: 'yes', force: false, dryRun: false },
    );
  }
  await rm(scratch, { recursive: true, force: true });
  await writeFile(join(home, '.complete'), `${count}\n`);
  return home;
}
