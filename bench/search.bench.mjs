// `hookpm search <query> --json` over a directory registry of 10,000 plugins (its index cached by
// `hookpm registry add`), next to a bare `node -e 0` start, as medians of interleaved runs. Target:
// at most 2x the bare node start. Uses the built code (bin/ and dist/).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './measure.mjs';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(REPO, 'bin', 'hookpm.js');
const PLUGINS = 10_000;
const RUNS = 15;
const EVENTS = [
  'PreToolUse',
  'PostToolUse',
  'SessionStart',
  'Stop',
  'UserPromptSubmit',
  'Notification',
];
const TOPICS = [
  'shell commands',
  'file edits',
  'git pushes',
  'secrets',
  'formatting',
  'notifications',
  'tests',
];

/** One plugin's index entry: one or two versions with every field of registry.md section 2. */
function pluginEntry(name, i) {
  const integrity = `sha512-${createHash('sha512').update(name).digest('base64')}`;
  const surfaceHash = `sha256-${createHash('sha256').update(name).digest('base64')}`;
  const version = (v, day, events) => ({
    tarball: `tarballs/${name}-${v}.tgz`,
    integrity,
    size: 2048 + i,
    publishedAt: `2026-11-${day}T00:00:00Z`,
    events,
    surfaceHash,
  });
  const versions = { '1.2.0': version('1.2.0', '02', [EVENTS[i % 6], EVENTS[(i + 1) % 6]]) };
  if (i % 2 === 0) versions['1.1.0'] = version('1.1.0', '01', [EVENTS[i % 6]]);
  return {
    description: `Hook plugin ${i}: guards ${TOPICS[i % TOPICS.length]} in a project`,
    keywords: ['hooks', `topic-${i % 50}`],
    distTags: { latest: '1.2.0' },
    versions,
  };
}

async function setUpRegistry(root) {
  const plugins = {};
  for (let i = 0; i < PLUGINS; i += 1) {
    const name = `plugin-${String(i).padStart(5, '0')}`;
    plugins[name] = pluginEntry(name, i);
  }
  const dir = join(root, 'registry');
  await mkdir(dir, { recursive: true });
  await writeFile(
    join(dir, 'index.json'),
    JSON.stringify({ formatVersion: 1, name: 'bench', plugins }),
  );
  return dir;
}

/** How many generated plugins hold both words of the query (description `secrets`, keyword `topic-3*`). */
function expectedHits() {
  let hits = 0;
  for (let i = 0; i < PLUGINS; i += 1) {
    if (TOPICS[i % TOPICS.length] === 'secrets' && `topic-${i % 50}`.includes('topic-3')) hits += 1;
  }
  return hits;
}

function timeRun(args, env) {
  const start = performance.now();
  const child = spawnSync(process.execPath, args, {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 64 << 20,
  });
  const ms = performance.now() - start;
  if (child.status !== 0)
    throw new Error(`${args.join(' ')} exited ${child.status}: ${child.stderr}`);
  return { ms, stdout: child.stdout.toString('utf8') };
}

export default async function bench() {
  const root = await mkdtemp(join(tmpdir(), 'hookpm-bench-search-'));
  try {
    const registry = await setUpRegistry(root);
    const env = { ...process.env, HOME: root, HOOKPM_HOME: join(root, 'home'), NO_COLOR: '1' };
    timeRun([BIN, 'registry', 'remove', 'examples'], env);
    timeRun([BIN, 'registry', 'add', 'bench', registry], env);
    const query = [BIN, 'search', 'secrets', 'topic-3', '--json'];
    const found = JSON.parse(timeRun(query, env).stdout);
    const expected = expectedHits();
    if (found.results.length !== expected)
      throw new Error(`search found ${found.results.length} plugins, not ${expected}`);
    const times = { node: [], search: [] };
    for (let i = 0; i < RUNS + 2; i += 1) {
      const node = timeRun(['-e', '0'], env).ms;
      const search = timeRun(query, env).ms;
      if (i < 2) continue; // warm-up: file-system caches
      times.node.push(node);
      times.search.push(search);
    }
    const node = median(times.node);
    return [
      {
        name: `search --json, ${PLUGINS} plugins (cached index)`,
        valueMs: median(times.search),
        yardstick: { name: 'node -e 0', valueMs: node },
        targetMs: 2 * node,
      },
    ];
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
