/**
 * The sparse layout end to end with the built binary (docs/reference/rules/registry.md N6-N11):
 * `registry build` writes it, `registry serve` serves it, and `registry add`, `search`, `info`
 * and `install` read it, each with the requests the rules name.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/built-bin.js';
import { useRegistryHome } from '../helpers/registry-home.js';

const PLUGINS = fileURLToPath(new URL('../../registry-fixtures/plugins', import.meta.url));
const reg = useRegistryHome('hookpm-sparse-cli-', false);
const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

/** `hookpm registry serve <dir> --json` as a child: its URL, and the request lines it logs. */
async function serve(dir: string): Promise<{ url: string; lines: () => string[] }> {
  const child = spawn(process.execPath, [BIN, 'registry', 'serve', dir, '--json'], {
    env: reg.home.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  stops.push(async () => {
    child.kill('SIGTERM');
    await new Promise((done) => child.once('exit', done));
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.once('exit', (code) => reject(new Error(`registry serve exited ${code}: ${err}`)));
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      try {
        resolve((JSON.parse(out) as { url: string }).url);
      } catch {
        // not a whole document yet
      }
    });
  });
  const lines = (): string[] =>
    err
      .split('\n')
      .filter((l) => l.startsWith('GET '))
      .map((l) => l.split(' ').slice(0, 3).join(' '));
  return { url, lines };
}

describe('sparse registry through the built binary (N6-N11)', () => {
  it('N6, N11: build, serve, `registry add <url>/registry.json` (the root only), search (manifest and shards), install (one plugin document and its tarball)', async () => {
    const out = join(reg.home.dir, 'site');
    await reg.ok('registry', 'build', PLUGINS, '--out', out, '--name', 'acme');
    const server = await serve(out);
    const added = await reg.ok('registry', 'add', 'acme', `${server.url}registry.json`, '--json');
    expect(JSON.parse(added.stdout)).toMatchObject({ added: { kind: 'index', plugins: 6 } });
    expect(server.lines()).toEqual(['GET /registry.json 200']);
    const found = await reg.ok('search', 'guard', '--json');
    expect(found.stdout).toContain('guard@acme');
    const searched = server.lines().slice(1);
    expect(searched[0]).toBe('GET /search/index.json 200');
    expect(searched.length).toBe(7);
    const installed = await reg.ok('install', 'guard@acme', '--yes', '--json');
    expect(JSON.parse(installed.stdout).installed[0]).toMatchObject({ id: 'guard@acme' });
    expect(server.lines().slice(8)).toEqual([
      'GET /plugins/gu/guard.json 200',
      'GET /tarballs/guard-1.3.0.tgz 200',
    ]);
    const info = await reg.ok('info', 'secrets-guard@acme', '--json');
    expect(info.stdout).toContain('secrets-guard');
    expect(server.lines().slice(10)).toEqual(['GET /plugins/se/secrets-guard.json 200']);
  });
});
