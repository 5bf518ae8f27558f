/**
 * End to end with the built binary: `hookpm registry build` of the example plugins, then `registry
 * add` of the output (as a directory, and as a loopback URL served by `hookpm registry serve`),
 * `search` and `info` over it. Installing every built plugin by name is
 * test/e2e/registry-build-install.test.ts.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RegistryIndex } from '../../src/registry/indexes/index-schema.js';
import { BIN, ensureBuilt, runBin } from '../helpers/built-bin.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
let home: TempHome;
let out: string;
let index: RegistryIndex;
let server: ChildProcessWithoutNullStreams | undefined;

beforeAll(async () => {
  ensureBuilt();
  home = await makeTempHome('hookpm-publish-');
  out = join(home.dir, 'registry');
  const built = await hookpm(
    'registry',
    'build',
    join(ROOT, 'registry-fixtures', 'plugins'),
    '--history',
    join(ROOT, 'registry-fixtures', 'history'),
    '--out',
    out,
    '--name',
    'mine',
    '--json',
  );
  expect(built.code, built.stderr).toBe(0);
  index = JSON.parse(await readFile(join(out, 'index.json'), 'utf8')) as RegistryIndex;
}, 60_000);

afterAll(async () => {
  // The server writes its code cache into the home as it exits: wait for that before removing it.
  if (server !== undefined && server.exitCode === null && server.signalCode === null) {
    const exited = once(server, 'exit');
    server.kill('SIGTERM');
    await exited;
  }
  await home?.cleanup();
});

function hookpm(...args: string[]) {
  return runBin(args, { env: home.env, cwd: home.dir });
}

function startServer(dir: string): Promise<string> {
  const child = spawn(process.execPath, [BIN, 'registry', 'serve', dir, '--json'], {
    env: home.env,
  });
  server = child;
  let stdout = '';
  return new Promise((resolve) => {
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
      if (stdout.includes('}')) resolve((JSON.parse(stdout) as { url: string }).url);
    });
  });
}

describe('hookpm pack (cli.md)', () => {
  it('A1: packs a fixture plugin to the very bytes of the checked-in tarball, with publishedAt from SOURCE_DATE_EPOCH', async () => {
    const run = await runBin(
      [
        'pack',
        join(ROOT, 'registry-fixtures', 'plugins', 'guard'),
        '--out',
        join(home.dir, 'packed'),
        '--json',
      ],
      { env: { ...home.env, SOURCE_DATE_EPOCH: '1793491200' }, cwd: home.dir },
    );
    expect(run.code, run.stderr).toBe(0);
    const packed = JSON.parse(run.stdout) as {
      file: string;
      integrity: string;
      entry: Record<string, unknown>;
    };
    const checkedIn = JSON.parse(
      await readFile(join(ROOT, 'registry-fixtures', 'index.json'), 'utf8'),
    ) as RegistryIndex;
    expect(packed.integrity).toBe(checkedIn.plugins['guard']?.versions['1.3.0']?.integrity);
    expect(await readFile(packed.file)).toEqual(
      await readFile(join(ROOT, 'registry-fixtures', 'tarballs', 'guard-1.3.0.tgz')),
    );
    expect(packed.entry).toMatchObject({
      tarball: 'guard-1.3.0.tgz',
      publishedAt: '2026-11-01T00:00:00Z',
    });
  });

  it('P2: packing a directory without a manifest fails with E_MANIFEST_INVALID and exit 1', async () => {
    const run = await hookpm(
      'pack',
      join(ROOT, 'registry-fixtures'),
      '--out',
      join(home.dir, 'packed'),
      '--json',
    );
    expect(run.code).toBe(1);
    expect((JSON.parse(run.stdout) as { error: { code: string } }).error.code).toBe(
      'E_MANIFEST_INVALID',
    );
  });
});

describe('hookpm registry build -> registry add -> search/info', () => {
  it('registry.md section 1: the built directory is added as an index registry listing every plugin', async () => {
    const added = await hookpm('registry', 'add', 'mine', out, '--json');
    expect(added.code, added.stderr).toBe(0);
    const search = await hookpm('search', '--json');
    const ids = (JSON.parse(search.stdout) as { results: Array<{ id: string }> }).results.map(
      (r) => r.id,
    );
    for (const name of Object.keys(index.plugins)) expect(ids).toContain(`${name}@mine`);
  });

  it('N4: the same directory served by `hookpm registry serve` is added over loopback http, and info shows both guard versions', async () => {
    const url = await startServer(out);
    const added = await hookpm('registry', 'add', 'served', url, '--json');
    expect(added.code, added.stderr).toBe(0);
    const info = await hookpm('info', 'guard@served', '--json');
    expect(info.code, info.stderr).toBe(0);
    const shown = JSON.parse(info.stdout) as {
      versions: string[];
      latest: { version: string; surfaceHash: string };
    };
    expect([...shown.versions].sort()).toEqual(['1.0.0', '1.1.0', '1.2.0', '1.3.0']);
    expect(shown.latest.version).toBe('1.3.0');
    expect(shown.latest.surfaceHash).toBe(index.plugins['guard']?.versions['1.3.0']?.surfaceHash);
  });
});
