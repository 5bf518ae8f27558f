import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stageNpmPlugin, type NpmStageContext } from '../../src/ops/steps/catalogs/fetch-npm.js';
import { fetchBytes } from '../../src/registry/http/http.js';
import { authorizationFor } from '../../src/registry/npm/npm-auth.js';
import type { NpmConfig } from '../../src/registry/npm/npm-config.js';
import { resolveStorePaths } from '../../src/store/paths.js';
import { failure } from '../helpers/failure.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';

// A package document may name a tarball URL of megabytes, and a redirect a Location of many
// kilobytes: matching credentials against such a URL must cost one pass over it, not one per path
// segment (registry.md K5), and a message naming it quotes a bounded prefix (security.md
// "Registries and the network").

const INTEGRITY = `sha512-${'A'.repeat(86)}==`;
/** 1,000,000 path segments: 2 MB of URL path. */
const LONG_PATH = 'a/'.repeat(1_000_000);

function configOf(values: Record<string, string>): NpmConfig {
  return {
    layers: [{ source: 'user', file: '/nowhere/.npmrc', values }],
    get: (key) => (Object.hasOwn(values, key) ? values[key] : undefined),
  };
}

describe('npm credentials for a URL of a million segments (registry.md K5)', () => {
  it('K5: the longest configured prefix answers, without a walk per segment', () => {
    const config = configOf({
      '//127.0.0.1:1/:_authToken': 'host-token',
      '//127.0.0.1:1/a/a/:_authToken': 'deeper-token',
      '//127.0.0.1:1/a/a/ab:_authToken': 'another-path',
    });
    const deep = new URL(`http://127.0.0.1:1/${LONG_PATH}`);
    expect(authorizationFor(config, deep, 'https://registry.npmjs.org/')).toBe(
      'Bearer deeper-token',
    );
    const other = new URL(`http://127.0.0.1:1/b/${LONG_PATH}`);
    expect(authorizationFor(config, other, 'https://registry.npmjs.org/')).toBe(
      'Bearer host-token',
    );
    const top = configOf({ _authToken: 'default-token' });
    expect(authorizationFor(top, deep, 'http://127.0.0.1:1/')).toBe('Bearer default-token');
    expect(authorizationFor(top, deep, 'http://127.0.0.1:1/b/')).toBeUndefined();
  });
});

describe('a package document naming a very long tarball URL (security.md, registry.md N5)', () => {
  let home: TempHome;
  let server: Server;
  let base = '';
  let ctx: NpmStageContext;
  /** Package documents by path: the tarball URL each names. */
  const documents: Record<string, () => string> = {
    '/long-remote': () => `${base}/${LONG_PATH}`,
    '/long-local': () => `file:///${'b'.repeat(200_000)}`,
    '/long-redirect': () => `${base}/hop.tgz`,
  };

  beforeAll(async () => {
    home = await makeTempHome();
    // Large enough a header limit to read the request line of a 2 MB URL and answer 404.
    server = createServer({ maxHeaderSize: 4 * 1024 * 1024 }, (req, res) => {
      const path = req.url ?? '/';
      const tarball = Object.hasOwn(documents, path) ? documents[path] : undefined;
      if (tarball !== undefined) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            name: path.slice(1),
            'dist-tags': { latest: '1.0.0' },
            versions: { '1.0.0': { dist: { tarball: tarball(), integrity: INTEGRITY } } },
          }),
        );
      } else if (req.url === '/hop.tgz') {
        res.writeHead(302, { location: `file:///${'c'.repeat(10_000)}` });
        res.end();
      } else {
        res.writeHead(404);
        res.end();
      }
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    ctx = {
      paths: resolveStorePaths(home.env),
      env: {
        ...home.env,
        HOOKPM_NPM_REGISTRY: `${base}/`,
        npm_config_userconfig: '/nowhere/.npmrc',
        [`npm_config_//127.0.0.1:${(server.address() as AddressInfo).port}/:_authToken`]: 'tok',
      },
      cwd: home.dir,
    };
  });

  afterAll(async () => {
    await new Promise<void>((done) => server.close(() => done()));
    await home.cleanup();
  });

  it('N3: a 404 for a 2 MB tarball URL is E_NOT_FOUND quoting its first 200 characters', async () => {
    const error = await failure(stageNpmPlugin({ package: 'long-remote' }, ctx));
    expect(error.code).toBe('E_NOT_FOUND');
    expect(error.message).toContain(`${base}/a/a/`);
    expect(error.message.length).toBeLessThan(400);
    expect(JSON.stringify(error.details).length).toBeLessThan(600);
  });

  it('a local tarball URL of 200 KB from a remote registry is E_INSECURE_URL, quoted cut', async () => {
    const error = await failure(stageNpmPlugin({ package: 'long-local' }, ctx));
    expect(error.code).toBe('E_INSECURE_URL');
    expect(error.message).toContain('file:///bbb');
    expect(error.message.length).toBeLessThan(400);
    expect(JSON.stringify(error.details).length).toBeLessThan(600);
  });

  it('N2: a redirect to a 10 KB file: Location is E_REDIRECT, quoted cut', async () => {
    const error = await failure(stageNpmPlugin({ package: 'long-redirect' }, ctx));
    expect(error.code).toBe('E_REDIRECT');
    expect(error.message).toContain('file:///ccc');
    expect(error.message.length).toBeLessThan(600);
  });
});

describe('a registry location whose host is 100 KB long (an .npmrc `registry` line)', () => {
  it('N5: the resolver failure naming the host is cut, the password never shown', async () => {
    const url = `https://user:hunter2-secret@${'h'.repeat(100_000)}/`;
    const error = await failure(fetchBytes(url, { purpose: 'index', maxBytes: 1024, retries: 0 }));
    expect(error.code).toBe('E_REGISTRY_NETWORK');
    expect(error.message).toContain('could not fetch https://');
    expect(error.message.length).toBeLessThan(600);
    expect(JSON.stringify(error)).not.toContain('hunter2-secret');
  });
});
