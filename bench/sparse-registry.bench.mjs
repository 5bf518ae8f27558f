// Sparse registry benchmark (docs/reference/rules/registry.md N12), on the built code (bin/, dist/):
// `hookpm registry add scale <url>/registry.json` then `hookpm install guard@scale --yes`, each in a
// fresh store, from generated sparse registries of 1,000, 20,000 and 1,000,000 plugins served by
// `registry serve` on 127.0.0.1 (in this process). Medians of 9 interleaved runs; the yardstick of
// each size is the 1,000-plugin registry of the same round. Targets: time at most 1.2x, bytes on
// the wire (gzip as served) at most 1.5x, requests equal.
//
// The registries are generated as sparse files directly (only guard gets a real tarball) once,
// into `<os tmpdir>/hookpm-bench-sparse-v<format>.<generator>-<count>/`, reused while the format version and
// the `.complete` marker stay; the million takes minutes and about 4 GB of small files the first
// time (the time is printed on stderr). BENCH_SPARSE_MILLION=0 leaves the million out.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './measure.mjs';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(REPO, 'bin', 'hookpm.js');
const GUARD = join(REPO, 'registry-fixtures', 'plugins', 'guard');
const RUNS = 9;
/** Bumped whenever the generated files change for the same format version. */
const GENERATOR = 2;

const dist = (path) => import(new URL(`../dist/${path}`, import.meta.url).href);

const FAKE_SRI = `sha512-${Buffer.alloc(64, 7).toString('base64')}`;
const FAKE_SURFACE = `sha256-${Buffer.alloc(32, 9).toString('base64')}`;

/** The generated plugin `i` (as test/helpers/sparse-registry.ts makes it). */
function generatedPlugin(i) {
  const name = `${((i * 2654435761) >>> 0).toString(36)}-hooks-${i}`;
  const version = `1.${i % 7}.0`;
  return {
    name,
    plugin: {
      description: `Generated plugin number ${i}: guards shell commands for the scale tests`,
      keywords: ['generated', 'scale'],
      distTags: { latest: version },
      versions: {
        [version]: {
          tarball: `tarballs/${name}-${version}.tgz`,
          integrity: FAKE_SRI,
          size: 454,
          publishedAt: '2026-11-01T00:00:00Z',
          events: ['PreToolUse'],
          surfaceHash: FAKE_SURFACE,
        },
      },
    },
  };
}

/**
 * Writes the sparse layout of `count` plugins into `dir` shard by shard, so a million plugins
 * never sit in memory at once; the bytes are those `registry build` would write for the same index.
 */
async function generate(dir, count) {
  const { packPlugin } = await dist('publish/pack.js');
  const format = await dist('registry/sparse/sparse-format.js');
  const docs = await dist('registry/sparse/sparse-documents.js');
  const { summarizePlugin } = await dist('registry/indexes/index-summary.js');
  const packed = await packPlugin(GUARD, {
    outDir: join(dir, 'tarballs'),
    tarballPrefix: 'tarballs/',
    publishedAt: '2026-11-01T00:00:00Z',
  });
  const real = {
    ...(packed.description === null ? {} : { description: packed.description }),
    keywords: packed.keywords,
    distTags: { latest: packed.version },
    versions: { [packed.version]: packed.entry },
  };
  const byShard = new Map();
  const add = (key, i) => {
    const list = byShard.get(key) ?? [];
    list.push(i);
    byShard.set(key, list);
  };
  for (let i = 1; i < count; i += 1) add(format.shardOf(generatedPlugin(i).name), i);
  add(format.shardOf(packed.name), 0);
  const shards = [];
  for (const key of [...byShard.keys()].sort()) {
    const plugins = byShard
      .get(key)
      .map((i) => (i === 0 ? { name: packed.name, plugin: real } : generatedPlugin(i)))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    await mkdir(join(dir, 'plugins', key), { recursive: true });
    const entries = [];
    for (const { name, plugin } of plugins) {
      const body = `${JSON.stringify({ name, ...plugin })}\n`;
      await writeFile(join(dir, 'plugins', format.pluginDocumentPath(name)), body);
      entries.push(summarizePlugin(name, plugin));
    }
    await mkdir(join(dir, 'search'), { recursive: true });
    for (const page of docs.searchPages(key, entries)) {
      await writeFile(join(dir, 'search', page.path), page.body);
      shards.push({ key, path: page.path, rows: page.rows, hash: docs.hashOf(page.body) });
    }
  }
  await writeFile(
    join(dir, 'search', 'index.json'),
    `${JSON.stringify({ formatVersion: 1, shards })}\n`,
  );
  const root = {
    formatVersion: 1,
    layout: 'sparse',
    name: 'scale',
    plugins: 'plugins/',
    search: 'search/index.json',
    pluginCount: count,
  };
  await writeFile(join(dir, 'registry.json'), `${JSON.stringify(root)}\n`);
  await writeFile(join(dir, '.complete'), '');
}

async function registryOf(count) {
  const { SPARSE_FORMAT_VERSION } = await dist('registry/sparse/sparse-format.js');
  const dir = join(tmpdir(), `hookpm-bench-sparse-v${SPARSE_FORMAT_VERSION}.${GENERATOR}-${count}`);
  if (existsSync(join(dir, '.complete'))) return dir;
  await rm(dir, { recursive: true, force: true });
  const start = performance.now();
  await generate(dir, count);
  const s = ((performance.now() - start) / 1000).toFixed(1);
  process.stderr.write(`sparse-registry: generated ${count} plugins in ${s} s into ${dir}\n`);
  return dir;
}

function hookpm(args, env) {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, [BIN, ...args], {
      env,
      cwd: env.HOME,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('exit', (code) => {
      if (code === 0) resolve(performance.now() - start);
      else reject(new Error(`hookpm ${args.join(' ')} exited ${code}: ${stderr}`));
    });
  });
}

/** One `registry add` + `install` in a fresh store: wall time, bytes and requests served. */
async function addAndInstall(server, log, root) {
  const home = await mkdtemp(join(root, 'home-'));
  const env = { ...process.env, HOME: home, HOOKPM_HOME: join(home, 'hookpm'), NO_COLOR: '1' };
  log.length = 0;
  const add = await hookpm(['registry', 'add', 'scale', `${server.url}registry.json`], env);
  const install = await hookpm(['install', 'guard@scale', '--yes'], env);
  await rm(home, { recursive: true, force: true });
  return {
    ms: add + install,
    bytes: log.reduce((n, r) => n + r.bytes, 0),
    requests: log.map((r) => r.path).join(' '),
  };
}

export default async function bench() {
  const { serveRegistry } = await dist('registry/http/http-server.js');
  const sizes = [1_000, 20_000];
  if (process.env.BENCH_SPARSE_MILLION !== '0') sizes.push(1_000_000);
  const root = await mkdtemp(join(tmpdir(), 'hookpm-bench-sparse-run-'));
  const servers = [];
  try {
    for (const count of sizes) {
      const log = [];
      const server = await serveRegistry(await registryOf(count), {
        onRequest: (r) => log.push(r),
      });
      servers.push({ count, server, log, samples: [] });
    }
    for (let run = 0; run < RUNS + 1; run += 1)
      for (const s of servers) {
        const sample = await addAndInstall(s.server, s.log, root);
        if (run > 0) s.samples.push(sample);
      }
    const [base, ...others] = servers.map((s) => ({
      count: s.count,
      ms: median(s.samples.map((x) => x.ms)),
      bytes: median(s.samples.map((x) => x.bytes)),
      requests: s.samples[0].requests,
    }));
    return others.map((o) => {
      const bytes = (o.bytes / base.bytes).toFixed(2);
      const same = o.requests === base.requests ? 'same requests' : 'OTHER REQUESTS';
      return {
        name: `sparse registry add+install, ${o.count} plugins (${o.bytes} B vs ${base.bytes} B: ${bytes}x, ${same})`,
        valueMs: o.requests === base.requests && o.bytes <= 1.5 * base.bytes ? o.ms : Infinity,
        yardstick: { name: `${base.count} plugins`, valueMs: base.ms },
        targetMs: 1.2 * base.ms,
      };
    });
  } finally {
    for (const s of servers) await s.server.close();
    await rm(root, { recursive: true, force: true });
  }
}
