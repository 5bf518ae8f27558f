import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchBytes } from '../../src/registry/http/http.js';
import { authorizationFor, nerfDart } from '../../src/registry/npm/npm-auth.js';
import { replaceEnv } from '../../src/registry/npm/npm-config.js';
import { npmRegistryAccess } from '../../src/registry/npm/npm-client.js';
import { readNpmConfig } from '../../src/registry/npm/read-npmrc.js';
import { failure } from '../helpers/failure.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tmp = useTempDir('npmrc');

/** A home with ~/.npmrc, a project (package.json, .npmrc) and a subdirectory of it. */
async function layout(files: { user?: string; project?: string; global?: string }): Promise<{
  home: string;
  project: string;
  sub: string;
  globalFile: string;
}> {
  const root = join(tmp.dir, Math.random().toString(36).slice(2));
  const home = join(root, 'home');
  const project = join(root, 'project');
  const sub = join(project, 'deep', 'er');
  await mkdir(home, { recursive: true });
  await mkdir(sub, { recursive: true });
  await writeFile(join(project, 'package.json'), '{}');
  const globalFile = join(root, 'global-npmrc');
  if (files.user !== undefined) await writeFile(join(home, '.npmrc'), files.user);
  if (files.project !== undefined) await writeFile(join(project, '.npmrc'), files.project);
  if (files.global !== undefined) await writeFile(globalFile, files.global);
  return { home, project, sub, globalFile };
}

describe('readNpmConfig (registry.md K4: npm configuration without running npm)', () => {
  it('K4: env over project over user over global; the project .npmrc is found from a subdirectory', async () => {
    const l = await layout({
      user: 'registry=https://user.example.test/\n@acme:registry=https://acme-user.example.test/\n',
      project: '@acme:registry=https://acme-project.example.test/\n',
      global: 'registry=https://global.example.test/\ncolor=false\n',
    });
    const env = { HOME: l.home, npm_config_globalconfig: l.globalFile };
    const config = await readNpmConfig({ env, cwd: l.sub });
    expect(config.get('registry')).toBe('https://user.example.test/');
    expect(config.get('@acme:registry')).toBe('https://acme-project.example.test/');
    expect(config.get('color')).toBe('false');
    const overridden = await readNpmConfig({
      env: { ...env, NPM_CONFIG_REGISTRY: 'https://env.example.test/' },
      cwd: l.sub,
    });
    expect(overridden.get('registry')).toBe('https://env.example.test/');
  });

  it('K4: NPM_CONFIG_USERCONFIG names the user file', async () => {
    const l = await layout({});
    const other = join(l.home, 'other-npmrc');
    await writeFile(other, 'registry=https://other.example.test/\n');
    const config = await readNpmConfig({
      env: { HOME: l.home, NPM_CONFIG_USERCONFIG: other },
      cwd: l.home,
    });
    expect(config.get('registry')).toBe('https://other.example.test/');
  });

  it('K4: prefix or globalconfig in the user file places the global file, as npm places it', async () => {
    const l = await layout({});
    const prefix = join(l.home, '.npm-global');
    await mkdir(join(prefix, 'etc'), { recursive: true });
    await writeFile(join(prefix, 'etc', 'npmrc'), 'registry=https://global.example.test/\n');
    await writeFile(join(l.home, '.npmrc'), 'prefix=~/.npm-global\n');
    const byPrefix = await readNpmConfig({ env: { HOME: l.home }, cwd: l.home });
    expect(byPrefix.get('registry')).toBe('https://global.example.test/');
    const other = join(l.home, 'other-global');
    await writeFile(other, 'registry=https://other-global.example.test/\n');
    await writeFile(join(l.home, '.npmrc'), `prefix=~/.npm-global\nglobalconfig=${other}\n`);
    const byFile = await readNpmConfig({ env: { HOME: l.home }, cwd: l.home });
    expect(byFile.get('registry')).toBe('https://other-global.example.test/');
    // The environment still wins over the user file.
    const byEnv = await readNpmConfig({
      env: { HOME: l.home, npm_config_globalconfig: join(prefix, 'etc', 'npmrc') },
      cwd: l.home,
    });
    expect(byEnv.get('registry')).toBe('https://global.example.test/');
  });

  it('K4: an npm_config_//host/:_authToken variable keeps its key as written, as npm keeps it', async () => {
    const l = await layout({});
    const env = {
      HOME: l.home,
      NPM_TOKEN: 'from-env',
      npm_config_registry: 'https://npm.acme.test/',
      'npm_config_//npm.acme.test/:_authToken': 'env-token',
      'npm_config_//npm.other.test/path/:_authToken': '${NPM_TOKEN}',
    };
    const config = await readNpmConfig({ env, cwd: l.home });
    expect(config.get('//npm.acme.test/:_authToken')).toBe('env-token');
    const access = await npmRegistryAccess({ env, cwd: l.home });
    expect(access.authorization(new URL('https://npm.acme.test/pkg'))).toBe('Bearer env-token');
    // npm replaces ${VAR} in the environment's values too.
    expect(access.authorization(new URL('https://npm.other.test/path/p'))).toBe('Bearer from-env');
    expect(access.authorization(new URL('https://npm.other.test/p'))).toBeUndefined();
  });

  it('K4: ${VAR} is replaced as npm does (unset stays, ${VAR?} is empty, \\${VAR} is literal)', () => {
    const env = { TOKEN: 's3cret' };
    expect(replaceEnv('${TOKEN}', env)).toBe('s3cret');
    expect(replaceEnv('a-${UNSET}-b', env)).toBe('a-${UNSET}-b');
    expect(replaceEnv('a-${UNSET?}-b', env)).toBe('a--b');
    expect(replaceEnv('\\${TOKEN}', env)).toBe('${TOKEN}');
    expect(replaceEnv('\\\\${TOKEN}', env)).toBe('\\s3cret');
  });

  it('K4: npmRegistryAccess picks @scope:registry for a scoped package, else HOOKPM_NPM_REGISTRY, else registry', async () => {
    const l = await layout({
      user: 'registry=https://user.example.test/\n@acme:registry=https://npm.acme.test/r\n',
    });
    const opts = { env: { HOME: l.home }, cwd: l.home };
    expect((await npmRegistryAccess(opts, '@acme/guardlet')).registry).toBe(
      'https://npm.acme.test/r/',
    );
    expect((await npmRegistryAccess(opts, '@other/x')).registry).toBe('https://user.example.test/');
    const pinned = { ...opts, env: { ...opts.env, HOOKPM_NPM_REGISTRY: 'http://127.0.0.1:9/' } };
    expect((await npmRegistryAccess(pinned, 'plain')).registry).toBe('http://127.0.0.1:9/');
    expect((await npmRegistryAccess(pinned, '@acme/guardlet')).registry).toBe(
      'https://npm.acme.test/r/',
    );
  });
});

describe('authorizationFor (registry.md K5: credentials only for their own host and path)', () => {
  it('K5: _authToken, _auth and username/_password are matched by the longest //host/path prefix', async () => {
    const l = await layout({
      user: [
        '//npm.acme.test/:_authToken=${ACME_TOKEN}',
        '//npm.acme.test/private/:_auth=dXNlcjpwYXNz',
        '//basic.example.test:8443/:username=bob',
        `//basic.example.test:8443/:_password=${Buffer.from('hunter2').toString('base64')}`,
        '',
      ].join('\n'),
    });
    const config = await readNpmConfig({ env: { HOME: l.home, ACME_TOKEN: 'tok-1' }, cwd: l.home });
    const auth = (url: string): string | undefined =>
      authorizationFor(config, new URL(url), 'https://registry.npmjs.org/');
    expect(auth('https://npm.acme.test/@acme%2fguardlet')).toBe('Bearer tok-1');
    expect(auth('https://npm.acme.test/private/x/-/x-1.0.0.tgz')).toBe('Basic dXNlcjpwYXNz');
    expect(auth('https://basic.example.test:8443/x')).toBe(
      `Basic ${Buffer.from('bob:hunter2').toString('base64')}`,
    );
    // Another host, another port, another scheme's host: nothing.
    expect(auth('https://evil.example.test/npm.acme.test/x')).toBeUndefined();
    expect(auth('https://basic.example.test/x')).toBeUndefined();
    expect(auth('https://npm.acme.test.evil.example/x')).toBeUndefined();
    expect(auth('file:///npm.acme.test/x')).toBeUndefined();
  });

  it('K5: a top-level _authToken counts for the default registry only', async () => {
    const l = await layout({
      user: 'registry=https://npm.corp.test/\n_authToken=top\n',
    });
    const config = await readNpmConfig({ env: { HOME: l.home }, cwd: l.home });
    expect(
      authorizationFor(config, new URL('https://npm.corp.test/x'), 'https://npm.corp.test/'),
    ).toBe('Bearer top');
    expect(
      authorizationFor(config, new URL('https://other.test/x'), 'https://npm.corp.test/'),
    ).toBeUndefined();
    expect(nerfDart('https://npm.corp.test:444/a/b/c?q=1')).toBe('//npm.corp.test:444/a/b/');
  });

  it("K5: a project .npmrc naming another registry never gets the user's top-level token sent there", async () => {
    const l = await layout({
      user: 'registry=https://npm.corp.test/\n_authToken=user-top\n',
      project: 'registry=https://npm.stranger.test/\n',
    });
    const access = await npmRegistryAccess({ env: { HOME: l.home }, cwd: l.sub });
    expect(access.registry).toBe('https://npm.stranger.test/');
    expect(access.authorization(new URL('https://npm.stranger.test/pkg'))).toBeUndefined();
    expect(access.authorization(new URL('https://npm.corp.test/pkg'))).toBe('Bearer user-top');
    // The project file's own top-level token is for the registry it names.
    const own = await layout({
      user: 'registry=https://npm.corp.test/\n_authToken=user-top\n',
      project: 'registry=https://npm.project.test/\n_authToken=project-top\n',
    });
    const ownAccess = await npmRegistryAccess({ env: { HOME: own.home }, cwd: own.sub });
    expect(ownAccess.authorization(new URL('https://npm.project.test/p'))).toBe(
      'Bearer project-top',
    );
    expect(ownAccess.authorization(new URL('https://npm.corp.test/p'))).toBe('Bearer user-top');
  });
});

describe('the registry host fallback (registry.md K5)', () => {
  it("K5: a URL on the registry's host with no credential of its own gets the registry's, as npm sends it", async () => {
    const l = await layout({
      user: [
        '@acme:registry=https://gitlab.corp.test/api/v4/packages/npm/',
        '//gitlab.corp.test/api/v4/packages/npm/:_authToken=instance',
        '//gitlab.corp.test/api/v4/projects/9/:_authToken=project-9',
        '',
      ].join('\n'),
    });
    const access = await npmRegistryAccess({ env: { HOME: l.home }, cwd: l.home }, '@acme/x');
    const auth = (url: string): string | undefined => access.authorization(new URL(url));
    // GitLab's instance-level endpoint serves tarballs from the project's path.
    expect(
      auth('https://gitlab.corp.test/api/v4/projects/7/packages/npm/@acme/x/-/x-1.0.0.tgz'),
    ).toBe('Bearer instance');
    expect(auth('https://gitlab.corp.test/api/v4/projects/9/packages/npm/x.tgz')).toBe(
      'Bearer project-9',
    );
    // Another host or port gets nothing; nor does a package asked for at another registry.
    expect(auth('https://gitlab.corp.test:8443/api/v4/projects/7/x.tgz')).toBeUndefined();
    expect(auth('https://cdn.corp.test/api/v4/projects/7/x.tgz')).toBeUndefined();
    const plain = await npmRegistryAccess({ env: { HOME: l.home }, cwd: l.home }, 'plain');
    expect(
      plain.authorization(new URL('https://gitlab.corp.test/api/v4/projects/7/x.tgz')),
    ).toBeUndefined();
  });
});

describe('authorize per request (registry.md K5, N2, N5)', () => {
  let server: Server;
  let base = '';
  const seen: { path: string; headers: IncomingHttpHeaders }[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push({ path: req.url ?? '', headers: req.headers });
      if (req.url === '/private/hop') {
        res.writeHead(302, { location: '/public/doc' });
        res.end();
      } else if (req.url === '/private/denied') {
        res.writeHead(401, { 'www-authenticate': 'Bearer' });
        res.end('{"error":"authorization required"}');
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{}');
      }
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((done) => server.close(() => done())));

  it('K5: a redirect hop to a path the credential is not configured for gets none', async () => {
    seen.length = 0;
    const authorize = (url: URL): string | undefined =>
      url.pathname.startsWith('/private/') ? 'Bearer only-private' : undefined;
    await fetchBytes(`${base}/private/hop`, { purpose: 'index', maxBytes: 1024, authorize });
    expect(seen.map((r) => [r.path, r.headers.authorization])).toEqual([
      ['/private/hop', 'Bearer only-private'],
      ['/public/doc', undefined],
    ]);
  });

  it('K5: a 401 is E_REGISTRY_NETWORK saying whether credentials were sent, never which', async () => {
    const without = await failure(
      fetchBytes(`${base}/private/denied`, { purpose: 'index', maxBytes: 1024 }),
    );
    expect(without.code).toBe('E_REGISTRY_NETWORK');
    expect(without.message).toMatch(/401 Unauthorized .*no credentials were sent/);
    const refused = await failure(
      fetchBytes(`${base}/private/denied`, {
        purpose: 'index',
        maxBytes: 1024,
        authorize: () => 'Bearer wrong-token-value',
      }),
    );
    expect(refused.message).toMatch(/credentials were sent and refused/);
    const shown = JSON.stringify({ m: refused.message, d: refused.details, h: refused.hint });
    expect(shown).not.toContain('wrong-token-value');
  });
});
