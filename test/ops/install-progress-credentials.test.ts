/**
 * N5 for the progress of a bulk install: a tarball URL given with its own user and password is
 * fetched with them (as Basic auth), and the progress reported for the terminal names it without
 * them.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installPlugins } from '../../src/ops/install/install.js';
import type { InstallProgress } from '../../src/ops/steps/context/operation-context.js';
import { resolveStorePaths } from '../../src/store/paths.js';
import { createTarGz } from '../../src/store/tar/tar-write.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tmp = useTempDir('progress-credentials');
const PASSWORD = 'pr0gress-s3cret';

let server: Server;
let base = '';
const seen: (string | undefined)[] = [];

function pluginTarball(name: string): Buffer {
  const manifest = JSON.stringify({ name, version: '1.0.0' });
  return createTarGz([
    { path: 'package/.claude-plugin/plugin.json', mode: 0o644, data: Buffer.from(manifest) },
  ]);
}

beforeAll(async () => {
  const tarballs: Record<string, Buffer> = {
    '/one.tgz': pluginTarball('one'),
    '/two.tgz': pluginTarball('two'),
  };
  server = createServer((req, res) => {
    seen.push(req.headers.authorization);
    const body = tarballs[(req.url ?? '').replace(/\?.*/, '')];
    if (body === undefined) {
      res.writeHead(404);
      res.end();
      return;
    }
    res.writeHead(200, { 'content-length': body.length });
    res.end(body);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

describe('bulk install progress (registry.md N5)', () => {
  it('N5: the progress of a bulk install names a tarball URL without its user and password', async () => {
    const home = join(tmp.dir, 'home');
    await mkdir(home, { recursive: true });
    const progress: InstallProgress[] = [];
    const withUser = base.replace('http://', `http://alice:${PASSWORD}@`);
    const result = await installPlugins(
      {
        paths: resolveStorePaths({ HOOKPM_HOME: join(home, 'hookpm') }),
        onProgress: (p) => progress.push(p),
      },
      {
        specs: [`${withUser}/one.tgz`, `${withUser}/two.tgz?token=${PASSWORD}`],
        cwd: home,
        enable: 'yes',
        force: false,
        dryRun: false,
      },
    );
    expect(result.installed.map((p) => p.id).sort()).toEqual(['one@local', 'two@local']);
    const basic = `Basic ${Buffer.from(`alice:${PASSWORD}`).toString('base64')}`;
    expect(seen).toEqual([basic, basic]);
    const staged = progress.filter((p) => p.kind === 'staged');
    expect(staged).toHaveLength(2);
    expect(JSON.stringify(progress)).not.toContain(PASSWORD);
  });
});
