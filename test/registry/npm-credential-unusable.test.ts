/**
 * K5 for `.npmrc` values no request can use: a credential an HTTP header cannot carry is refused
 * at once, naming its key and never its value, with nothing sent (not retried as a network
 * failure); a `registry` that is not a URL (npm ignores it) leaves a scope's own registry and
 * credentials working.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchNpmDocument, npmRegistryAccess } from '../../src/registry/npm/npm-client.js';
import { failure } from '../helpers/failure.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tmp = useTempDir('npm-credential');

let server: Server;
let base = '';
const seen: { path: string; headers: IncomingHttpHeaders }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ path: req.url ?? '', headers: req.headers });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ name: '@acme/guard', 'dist-tags': {}, versions: {} }));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

/** A project holding `.npmrc` with `text`; its directory. */
async function project(text: string): Promise<string> {
  const dir = join(tmp.dir, Math.random().toString(36).slice(2));
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'package.json'), '{}');
  await writeFile(join(dir, '.npmrc'), text);
  return dir;
}

async function documentWith(npmrc: string): Promise<unknown> {
  const cwd = await project(npmrc);
  const access = await npmRegistryAccess({ env: { HOME: cwd }, cwd }, '@acme/guard');
  return fetchNpmDocument(access.registry, '@acme/guard', access.authorization);
}

describe('unusable .npmrc values (registry.md K5)', () => {
  it('K5: a token holding a line break is E_REGISTRY_NETWORK naming its key, nothing sent', async () => {
    const dart = `//${new URL(base).host}/`;
    for (const value of ['"sekrit\\r\\nX-Injected: 1"', '"sek\\u0000rit"', 'sekr€t']) {
      seen.length = 0;
      const started = Date.now();
      const error = await failure(
        documentWith(`@acme:registry=${base}\n${dart}:_authToken=${value}\n`),
      );
      expect(error.code).toBe('E_REGISTRY_NETWORK');
      expect(error.message).toContain(`${dart}:_authToken`);
      expect(error.message).toMatch(/cannot carry/);
      expect(JSON.stringify([error.message, error.hint, error.details])).not.toMatch(/sek/);
      expect(seen).toEqual([]);
      // Retried, it would wait 500 + 1,000 ms (N3 backoff) before failing.
      expect(Date.now() - started).toBeLessThan(1200);
    }
    seen.length = 0;
    const auth = await failure(documentWith(`@acme:registry=${base}\n${dart}:_auth="a\\nb"\n`));
    expect(auth.message).toContain(`${dart}:_auth`);
    expect(seen).toEqual([]);
  });

  it('K5: a registry that is not a URL leaves a scope its registry and its token', async () => {
    seen.length = 0;
    const dart = `//${new URL(base).host}/`;
    await documentWith(`registry=not a url\n@acme:registry=${base}\n${dart}:_authToken=scoped\n`);
    expect(seen.map((r) => [r.path, r.headers.authorization])).toEqual([
      ['/@acme%2fguard', 'Bearer scoped'],
    ]);
  });
});
