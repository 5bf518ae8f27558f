/**
 * End to end with the built binary: `hookpm registry build registry-fixtures/plugins --out <tmp>`
 * gives byte-identical trees when run twice; the output, added with `registry add mine <tmp>`,
 * installs every plugin by name (`install <name>@mine --yes`), each with the version, integrity,
 * events and surfaceHash its index entry states, and `list --json` shows them all enabled.
 */
import { createHash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RegistryIndex } from '../../src/registry/indexes/index-schema.js';
import { runBin, type BinRun } from '../helpers/built-bin.js';
import { useBuiltHome } from '../helpers/registry-home.js';

const PLUGINS = fileURLToPath(new URL('../../registry-fixtures/plugins', import.meta.url));
const home = useBuiltHome('hookpm-build-install-');
let out: string;
let firstBuild: Record<string, string>;
/** When the first build started and ended, to the second (publishedAt carries no milliseconds). */
let builtBetween: [number, number];

beforeAll(async () => {
  out = join(home.dir, 'built');
  const started = Math.floor(Date.now() / 1000) * 1000;
  await hookpm('registry', 'build', PLUGINS, '--out', out);
  builtBetween = [started, Date.now()];
  firstBuild = await treeOf(out);
}, 120_000);

async function hookpm(...args: string[]): Promise<BinRun> {
  const run = await runBin(args, { env: home.env, cwd: home.dir });
  expect(run.code, `hookpm ${args.join(' ')}\n${run.stderr}`).toBe(0);
  return run;
}

/** Every file under `dir` (relative path -> sha256 of its bytes), sorted by path. */
async function treeOf(dir: string): Promise<Record<string, string>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files: Array<[string, string]> = [];
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const full = join(entry.parentPath, entry.name);
    const digest = createHash('sha256')
      .update(await readFile(full))
      .digest('hex');
    files.push([full.slice(dir.length + 1), digest]);
  }
  return Object.fromEntries(files.sort(([a], [b]) => (a < b ? -1 : 1)));
}

describe('hookpm registry build -> registry add -> install by name', () => {
  it('the serve command it prints names an output directory with a space or a quote as one shell word', async () => {
    const odd = join(home.dir, "it's out #1");
    const built = await hookpm('registry', 'build', PLUGINS, '--out', odd, '--name', 'odd');
    const shown = odd.replaceAll("'", "'\\''");
    expect(built.stdout).toContain(`or run: hookpm registry serve '${shown}'\n`);
  });
  it('A1: building twice gives byte-identical output (index.json, index.html, every tarball)', async () => {
    const first = firstBuild;
    await hookpm('registry', 'build', PLUGINS, '--out', out);
    const second = await treeOf(out);
    expect(Object.keys(first)).toEqual(expect.arrayContaining(['index.json', 'index.html']));
    expect(Object.keys(first).filter((f) => f.endsWith('.tgz')).length).toBeGreaterThan(0);
    expect(second).toEqual(first);
  });

  it("policy.md A22: without --published-at or SOURCE_DATE_EPOCH every version new to the index is published at the build's time, and a rebuild keeps it", async () => {
    expect(home.env['SOURCE_DATE_EPOCH']).toBeUndefined();
    const index = JSON.parse(await readFile(join(out, 'index.json'), 'utf8')) as RegistryIndex;
    const times = Object.values(index.plugins).flatMap((plugin) =>
      Object.values(plugin.versions).map((entry) => entry.publishedAt),
    );
    expect(times.length).toBeGreaterThan(1);
    for (const at of times) {
      expect(at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      const ms = Date.parse(at!);
      expect(ms).toBeGreaterThanOrEqual(builtBetween[0]);
      expect(ms).toBeLessThanOrEqual(builtBetween[1]);
    }
    // A1 above rebuilt into the same directory: the same times, the same bytes.
    expect(await treeOf(out)).toEqual(firstBuild);
  });

  it('1, I3: `registry add mine <out>` then `install <name>@mine --yes` for every plugin installs each as its index entry states, and `list --json` shows all enabled', async () => {
    const index = JSON.parse(await readFile(join(out, 'index.json'), 'utf8')) as RegistryIndex;
    const names = Object.keys(index.plugins).sort();
    expect(names.length).toBeGreaterThanOrEqual(6);
    const added = JSON.parse((await hookpm('registry', 'add', 'mine', out, '--json')).stdout) as {
      added: { kind: string; plugins: number };
    };
    expect(added.added).toEqual(expect.objectContaining({ kind: 'index', plugins: names.length }));
    for (const name of names) {
      const plugin = index.plugins[name];
      const version = plugin?.distTags['latest'] ?? '';
      const entry = plugin?.versions[version];
      const run = await hookpm('install', `${name}@mine`, '--yes', '--json');
      const result = JSON.parse(run.stdout) as {
        installed: Array<{ id: string; version: string; integrity: string; events: string[] }>;
      };
      expect(result.installed).toEqual([
        expect.objectContaining({
          id: `${name}@mine`,
          version,
          integrity: entry?.integrity,
          events: entry?.events,
        }),
      ]);
      const review = JSON.parse((await hookpm('review', `${name}@mine`, '--json')).stdout) as {
        surfaceHash: string;
        consented: boolean;
      };
      expect(review).toMatchObject({ surfaceHash: entry?.surfaceHash, consented: true });
    }
    const listed = JSON.parse((await hookpm('list', '--json')).stdout) as {
      plugins: Array<{ id: string; enabled: boolean; registry: string }>;
    };
    expect(listed.plugins.map((p) => [p.id, p.registry, p.enabled])).toEqual(
      names.map((name) => [`${name}@mine`, 'mine', true]),
    );
  });
});
