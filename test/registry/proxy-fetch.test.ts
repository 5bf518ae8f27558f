/**
 * registry.md N13 and N1: a proxy that accepts the connection but never answers its CONNECT
 * holds a fetch no longer than its deadline (E_REGISTRY_TIMEOUT naming the proxy, redacted), and
 * never past it. A silent TCP server on 127.0.0.1 plays the proxy. And an https registry is
 * reached through the tunnel: its own certificate is checked, and a refusal keeps N3's hint.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fetchBytes } from '../../src/registry/http/http.js';
import { failure } from '../helpers/failure.js';
import { startForwardProxy } from '../helpers/forward-proxy.js';
import { INSTALL_TIMEOUT_MS, OPENSSL, requireTool } from '../helpers/system-package.js';

let server: Server | undefined;
const sockets = new Set<Socket>();
afterEach(async () => {
  for (const socket of sockets) socket.destroy();
  if (server !== undefined) await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

describe('registry.md N13: a silent proxy', () => {
  it('N13: a fetch through a proxy that never answers ends at its deadline, naming the proxy', async () => {
    server = createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const started = Date.now();
    const failure = await fetchBytes('http://127.0.0.1:9/index.json', {
      purpose: 'index',
      maxBytes: 1024,
      deadlineMs: 1500,
      retries: 0,
      proxy: { http: `http://alice:hunter2@127.0.0.1:${port}` },
    }).catch((error: unknown) => error);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(failure).toMatchObject({ code: 'E_REGISTRY_TIMEOUT' });
    const message = (failure as Error).message;
    expect(message).toContain(`through the proxy http://***@127.0.0.1:${port}/`);
    expect(message).not.toContain('hunter2');
  });

  it(
    'N13, N3: an https registry through the proxy is a tunnel; its untrusted certificate keeps N3 hint',
    async () => {
      const { dir, key, cert } = await selfSignedCertificate();
      const tls = createHttpsServer({ key, cert }, (_q, r) => r.end('{}'));
      await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
      const { port } = tls.address() as { port: number };
      const fwd = await startForwardProxy();
      try {
        const error = await failure(
          fetchBytes(`https://127.0.0.1:${port}/index.json`, {
            purpose: 'index',
            maxBytes: 1024,
            retries: 0,
            proxy: { https: fwd.url },
          }),
        );
        expect(fwd.seen.map((s) => `${s.method} ${s.target}`)).toEqual([
          `CONNECT 127.0.0.1:${port}`,
        ]);
        expect(error.code).toBe('E_REGISTRY_NETWORK');
        expect(error.message).toMatch(/self-signed|SELF_SIGNED/);
        expect(error.message).toContain(`through the proxy ${fwd.url}`);
        expect(error.hint).toMatch(/NODE_EXTRA_CA_CERTS/);
      } finally {
        await fwd.close();
        tls.closeAllConnections();
        await new Promise((resolve) => tls.close(resolve));
        await rm(dir, { recursive: true, force: true });
      }
    },
    INSTALL_TIMEOUT_MS,
  );

  it('N13: a proxy URL with a path and query reaches the proxy (they are ignored, as curl does)', async () => {
    const origin = createHttpServer((_q, r) => r.end('{"ok":true}'));
    await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
    const { port } = origin.address() as { port: number };
    const fwd = await startForwardProxy();
    try {
      const result = await fetchBytes(`http://127.0.0.1:${port}/index.json`, {
        purpose: 'index',
        maxBytes: 1024,
        retries: 0,
        proxy: { http: `${fwd.url}proxy/path?x=1` },
      });
      expect(result.status === 200 && result.body.toString()).toBe('{"ok":true}');
      expect(fwd.seen.map((s) => `${s.method} ${s.target}`)).toEqual([`CONNECT 127.0.0.1:${port}`]);
    } finally {
      await fwd.close();
      origin.closeAllConnections();
      await new Promise((resolve) => origin.close(resolve));
    }
  });

  it(
    'N13, N3: an https proxy whose certificate is not trusted is not retried, and the hint says so',
    async () => {
      const { dir, key, cert } = await selfSignedCertificate();
      const proxyTls = createHttpsServer({ key, cert });
      let connections = 0;
      proxyTls.on('connection', () => (connections += 1));
      await new Promise<void>((resolve) => proxyTls.listen(0, '127.0.0.1', resolve));
      const { port } = proxyTls.address() as { port: number };
      try {
        const error = await failure(
          fetchBytes('http://127.0.0.1:9/index.json', {
            purpose: 'index',
            maxBytes: 1024,
            retries: 2,
            retryBaseDelayMs: 1,
            proxy: { http: `https://alice:hunter2@127.0.0.1:${port}` },
          }),
        );
        expect(connections).toBe(1);
        expect(error.code).toBe('E_REGISTRY_NETWORK');
        expect(error.message).toMatch(/self-signed|SELF_SIGNED/);
        expect(error.message).toContain(`through the proxy https://***@127.0.0.1:${port}/`);
        expect(error.message).not.toContain('hunter2');
        expect(error.hint).toMatch(/NODE_EXTRA_CA_CERTS/);
      } finally {
        proxyTls.closeAllConnections();
        await new Promise((resolve) => proxyTls.close(resolve));
        await rm(dir, { recursive: true, force: true });
      }
    },
    INSTALL_TIMEOUT_MS,
  );
});

/** A key and a self-signed certificate for 127.0.0.1 made by openssl, in a new directory. */
async function selfSignedCertificate(): Promise<{ dir: string; key: Buffer; cert: Buffer }> {
  const openssl = await requireTool(OPENSSL);
  const dir = await mkdtemp(join(tmpdir(), 'hookpm-proxy-tls-'));
  const [keyFile, certFile] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
  const made = spawnSync(openssl, [
    ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1'],
    ...['-subj', '/CN=127.0.0.1', '-keyout', keyFile, '-out', certFile],
  ]);
  expect(made.status, String(made.stderr)).toBe(0);
  return { dir, key: await readFile(keyFile), cert: await readFile(certFile) };
}
