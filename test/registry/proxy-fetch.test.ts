/**
 * registry.md N13 and N1: a proxy that accepts the connection but never answers its CONNECT
 * holds a fetch no longer than its deadline (E_REGISTRY_TIMEOUT naming the proxy, redacted), and
 * never past it. A silent TCP server on 127.0.0.1 plays the proxy.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { fetchBytes } from '../../src/registry/http/http.js';

let server: Server | undefined;
const sockets = new Set<Socket>();
afterEach(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => server?.close(resolve));
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
});
