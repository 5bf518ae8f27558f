/**
 * N5/K6: a URL's own user and password are sent as Basic auth, percent-decoded as the URL
 * standard decodes them; a `%` that starts no escape (`50%off`, `%ZZ`) stays as written. A URL
 * from a registry (a packument's tarball) or from the user therefore never fails with E_INTERNAL.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stageNpmPlugin } from '../../src/ops/steps/catalogs/fetch-npm.js';
import { gitHeadersFor } from '../../src/registry/git/git-auth.js';
import { fetchBytes } from '../../src/registry/http/http.js';
import { integrityOf } from '../../src/registry/integrity.js';
import { resolveStorePaths } from '../../src/store/paths.js';
import { createTarGz } from '../../src/store/tar/tar-write.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';

const basic = (pair: string): string => `Basic ${Buffer.from(pair).toString('base64')}`;

let server: Server;
let host = '';
let home: TempHome;
const seen: { path: string; authorization: string | undefined }[] = [];
const tarball = createTarGz([
  {
    path: 'package/.claude-plugin/plugin.json',
    mode: 0o644,
    data: Buffer.from(JSON.stringify({ name: 'guard', version: '1.0.0' })),
  },
]);

beforeAll(async () => {
  home = await makeTempHome();
  server = createServer((req, res) => {
    seen.push({ path: req.url ?? '', authorization: req.headers.authorization });
    if (req.url === '/guard') {
      const dist = {
        tarball: `http://u:%ZZ@${host}/guard-1.0.0.tgz`,
        integrity: integrityOf(tarball),
      };
      const version = { name: 'guard', version: '1.0.0', dist };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          name: 'guard',
          'dist-tags': { latest: '1.0.0' },
          versions: { '1.0.0': version },
        }),
      );
      return;
    }
    res.writeHead(200, { 'content-length': tarball.length });
    res.end(req.url === '/guard-1.0.0.tgz' ? tarball : Buffer.alloc(tarball.length));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((done) => server.close(() => done()));
  await home.cleanup();
});

describe("a URL's own user and password (registry.md N5, K6)", () => {
  it('N5: they are percent-decoded leniently: 50%off and %ZZ stay as written, escapes are decoded', async () => {
    for (const [userinfo, pair] of [
      ['u:50%off', 'u:50%off'],
      ['u:%ZZ', 'u:%ZZ'],
      ['al%69ce:p%C3%A4ss%3A', 'alice:päss:'],
    ] as const) {
      seen.length = 0;
      await fetchBytes(`http://${userinfo}@${host}/doc`, { purpose: 'index', maxBytes: 1 << 20 });
      expect(seen).toEqual([{ path: '/doc', authorization: basic(pair) }]);
      const headers = await gitHeadersFor(`http://${userinfo}@${host}/r.git`, {}, {});
      expect(headers).toEqual({ Authorization: basic(pair) });
    }
  });

  it('N5: a packument whose tarball URL holds %ZZ in its password installs, sending it as written', async () => {
    seen.length = 0;
    const staged = await stageNpmPlugin(
      { package: 'guard', registry: `http://${host}/` },
      { paths: resolveStorePaths(home.env), env: home.env, cwd: home.dir },
    );
    expect(staged.version).toBe('1.0.0');
    expect(seen).toEqual([
      { path: '/guard', authorization: undefined },
      { path: '/guard-1.0.0.tgz', authorization: basic('u:%ZZ') },
    ]);
  });
});
