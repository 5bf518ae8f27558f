/**
 * registry.md N13 through the built CLI: requests to a registry go through the proxy that
 * HTTPS_PROXY/HTTP_PROXY (lower case first) or npm's `.npmrc` `proxy`/`https-proxy` name, unless
 * NO_PROXY (or `noproxy`) names the host. A real forward proxy on 127.0.0.1 (CONNECT tunnels)
 * records what it saw; the registries are real servers on 127.0.0.1.
 */
import { spawnSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer as createHttpsServer } from 'node:https';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useBinWorkspace } from '../helpers/bin-workspace.js';
import { INSTALL_TIMEOUT_MS, OPENSSL, requireTool } from '../helpers/system-package.js';
import {
  QUIET_PACKAGE,
  startFakeNpmRegistry,
  type FakeNpmRegistry,
} from '../helpers/fake-npm-registry.js';
import { startForwardProxy, type ForwardProxy } from '../helpers/forward-proxy.js';
import {
  publishPlugin,
  startPluginRegistry,
  type ServedRegistry,
} from '../helpers/plugin-registry.js';

const ws = useBinWorkspace('registry-proxy');
const PASSWORD = 'pr0xy-s3cret-pass';
const TOKEN = 'npm_registry_token_0123456789abcdef';
let acme: ServedRegistry;
let npm: FakeNpmRegistry;
const closers: Array<() => Promise<void>> = [];

beforeEach(async () => {
  acme = await startPluginRegistry('acme');
  await publishPlugin(acme, 'semv', '1.0.0');
  npm = await startFakeNpmRegistry({ 'hookpm-plugin-quiet': QUIET_PACKAGE });
});
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  await acme.close();
  await npm.close();
});

async function proxy(auth?: string): Promise<ForwardProxy> {
  const started = await startForwardProxy(auth === undefined ? {} : { auth });
  closers.push(started.close);
  return started;
}

/** A port nothing listens on: a proxy started and closed. */
async function deadPort(): Promise<number> {
  const gone = await startForwardProxy();
  await gone.close();
  return gone.port;
}

const proxyEnv = (url: string, extra: Record<string, string> = {}) =>
  ws.env({ HTTPS_PROXY: url, HTTP_PROXY: url, ...extra });

/** `registry add` then `install semv`; the first that fails is returned, else the install. */
async function installFromIndex(env: Record<string, string>) {
  const add = await ws.hookpm(['registry', 'add', 'acme', acme.url], { env });
  if (add.code !== 0) return add;
  return ws.hookpm(['install', 'semv', '--yes'], { env });
}

describe('registry.md N13: HTTP proxies', () => {
  it('N13: install from an index registry goes through HTTP_PROXY', async () => {
    const fwd = await proxy();
    const run = await installFromIndex(proxyEnv(fwd.url));
    expect(run.code, run.stderr).toBe(0);
    const port = new URL(acme.url).port;
    expect(fwd.seen.map((s) => s.target)).toContain(`127.0.0.1:${port}`);
    expect(acme.requests).toContain('/index.json');
  });

  it('N13: lower-case http_proxy wins over HTTP_PROXY', async () => {
    const fwd = await proxy();
    const dead = `http://127.0.0.1:${await deadPort()}`;
    const run = await installFromIndex(
      ws.env({ HTTP_PROXY: dead, http_proxy: fwd.url, HTTPS_PROXY: dead }),
    );
    expect(run.code, run.stderr).toBe(0);
    expect(fwd.seen.length).toBeGreaterThan(0);
  });

  it('N13: NO_PROXY naming the host (or host:port, or *) bypasses the proxy', async () => {
    const fwd = await proxy();
    const port = new URL(acme.url).port;
    const add = ['registry', 'add', 'acme', acme.url];
    await ws.hookpm(add, { env: proxyEnv(fwd.url, { NO_PROXY: '127.0.0.1' }) });
    for (const noProxy of ['example.test,127.0.0.1', `127.0.0.1:${port}`, '*', '.0.0.1']) {
      const env = proxyEnv(fwd.url, { NO_PROXY: noProxy });
      const run = await ws.hookpm(['install', 'semv', '--yes'], { env });
      expect(run.code, `${noProxy}: ${run.stderr}`).toBe(0);
      const removed = await ws.hookpm(['uninstall', 'semv', '--yes'], { env });
      expect(removed.code, removed.stderr).toBe(0);
    }
    expect(fwd.seen.filter((s) => s.target.includes(`:${port}`))).toEqual([]);
  });

  it('N13: a proxy that wants credentials gets them from its URL, and the password is never shown', async () => {
    const auth = `Basic ${Buffer.from(`alice:${PASSWORD}`).toString('base64')}`;
    const fwd = await proxy(auth);
    const without = await installFromIndex(proxyEnv(fwd.url));
    expect(without.code).not.toBe(0);
    expect(without.stderr).toContain('E_REGISTRY_NETWORK');
    expect(without.stderr).toContain('407');
    expect(without.stderr).toContain('user:password@ before its host');
    expect(without.stderr).toContain(`127.0.0.1:${fwd.port}`);
    expect(without.stderr).not.toContain('E_INTERNAL');

    const withAuth = `http://alice:${PASSWORD}@127.0.0.1:${fwd.port}/`;
    const run = await installFromIndex(proxyEnv(withAuth));
    expect(run.code, run.stderr).toBe(0);
    expect(fwd.seen.some((s) => s.headers['proxy-authorization'] === auth)).toBe(true);

    const wrong = `http://alice:${PASSWORD}x@127.0.0.1:${fwd.port}/`;
    const refused = await ws.hookpm(['update', '--yes'], { env: proxyEnv(wrong) });
    const listed = await ws.hookpm(['registry', 'list'], { env: proxyEnv(wrong) });
    for (const out of [without, run, refused, listed])
      expect(out.stdout + out.stderr).not.toContain(PASSWORD);
  });

  it('N13: a proxy that is down is E_REGISTRY_NETWORK naming the proxy, password redacted', async () => {
    const dead = `http://alice:${PASSWORD}@127.0.0.1:${await deadPort()}/`;
    const run = await installFromIndex(proxyEnv(dead));
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain('E_REGISTRY_NETWORK');
    expect(run.stderr).toContain(`proxy http://***@127.0.0.1:${new URL(dead).port}/`);
    expect(run.stderr).not.toContain('E_INTERNAL');
    expect(run.stdout + run.stderr).not.toContain(PASSWORD);
  });

  it('N13: an https:// proxy named by its IP address gets no warning of Node about its TLS name', async () => {
    const dead = `https://127.0.0.1:${await deadPort()}/`;
    const run = await installFromIndex(proxyEnv(dead));
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(`through the proxy ${dead}`);
    expect(run.stderr).not.toMatch(/Warning|DEP0123/);
  });

  it(
    'N13, N3: an https proxy whose trusted certificate names another host fails at once with the N3 hint',
    async () => {
      const openssl = await requireTool(OPENSSL);
      const [key, cert] = [join(ws.dir, 'proxy-key.pem'), join(ws.dir, 'proxy-cert.pem')];
      const made = spawnSync(openssl, [
        ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj'],
        ...['/CN=proxy.example', '-addext', 'subjectAltName=DNS:proxy.example'],
        ...['-keyout', key, '-out', cert],
      ]);
      expect(made.status, String(made.stderr)).toBe(0);
      const tls = createHttpsServer({ key: await readFile(key), cert: await readFile(cert) });
      let connections = 0;
      tls.on('connection', () => (connections += 1));
      tls.on('connect', (req, client, head) => {
        client.on('error', () => undefined);
        const [host, port] = (req.url ?? '').split(/:(?=\d+$)/);
        const upstream = connect(Number(port), host, () => {
          client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
          upstream.write(head);
          upstream.pipe(client).pipe(upstream);
        });
        upstream.on('error', () => client.destroy());
      });
      await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
      closers.push(async () => {
        tls.closeAllConnections();
        await new Promise((resolve) => tls.close(resolve));
      });
      const url = `https://127.0.0.1:${(tls.address() as { port: number }).port}/`;
      const run = await installFromIndex(proxyEnv(url, { NODE_EXTRA_CA_CERTS: cert }));
      expect(run.code).not.toBe(0);
      expect(run.stderr).toMatch(/ERR_TLS_CERT_ALTNAME_INVALID/);
      expect(run.stderr).toContain(`through the proxy ${url}`);
      expect(run.stderr).toMatch(/NODE_EXTRA_CA_CERTS/);
      expect(connections).toBe(1);
    },
    INSTALL_TIMEOUT_MS,
  );

  it('N13: .npmrc proxy wins over the environment for npm, and the token stays in the tunnel', async () => {
    const fwd = await proxy();
    const dead = `http://127.0.0.1:${await deadPort()}/`;
    const host = new URL(npm.url).host;
    await writeFile(
      join(ws.home, '.npmrc'),
      `registry=${npm.url}\nproxy=${fwd.url}\nhttps-proxy=${fwd.url}\n//${host}/:_authToken=${TOKEN}\n`,
    );
    const run = await ws.hookpm(['install', 'npm:hookpm-plugin-quiet', '--yes'], {
      env: proxyEnv(dead),
    });
    expect(run.code, run.stderr).toBe(0);
    expect(fwd.seen.map((s) => s.target)).toContain(host);
    for (const seen of fwd.seen) {
      expect(seen.headers.authorization).toBeUndefined();
      expect(JSON.stringify(seen.headers)).not.toContain(TOKEN);
    }
    expect(npm.requests.some((r) => r.headers.authorization === `Bearer ${TOKEN}`)).toBe(true);
  });

  it('N13: .npmrc noproxy bypasses an environment proxy for npm', async () => {
    const dead = `http://127.0.0.1:${await deadPort()}/`;
    await writeFile(join(ws.home, '.npmrc'), `registry=${npm.url}\nnoproxy=127.0.0.1\n`);
    const run = await ws.hookpm(['install', 'npm:hookpm-plugin-quiet', '--yes'], {
      env: proxyEnv(dead),
    });
    expect(run.code, run.stderr).toBe(0);
  });
});
