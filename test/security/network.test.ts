/**
 * security.md "Registries and the network", every row THROUGH the install operation against a real
 * registry on 127.0.0.1 that misbehaves on purpose. Each case asserts the error code and that the
 * state file and every installed tree are byte-identical afterwards (plus the cached index or the
 * tarball cache where the row says so).
 */
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { isHookpmError, type HookpmError } from '../../src/errors.js';
import type { InstallOptions } from '../../src/ops/steps/transaction/options.js';
import type { OperationContext } from '../../src/ops/steps/context/operation-context.js';
import { INDEX_MAX_AGE_MS } from '../../src/registry/indexes/load-index.js';
import { indexCacheDir, tarballCacheDir } from '../../src/store/paths.js';
import { readState } from '../../src/store/state/state.js';
import { publishPlugin } from '../helpers/plugin-registry.js';
import { hashStore } from '../helpers/store-snapshot.js';
import { acmeAt, installSpecs, useRegistryWorld } from '../helpers/registry-world.js';

const fx = useRegistryWorld();
let ctx: OperationContext;
/** The clock of the context: a test moves it past INDEX_MAX_AGE_MS so the cached index is revalidated. */
let clock = Date.parse('2026-11-30T12:00:00.000Z');
const agePastCache = (): void => {
  clock += INDEX_MAX_AGE_MS + 1000;
};

const TIMINGS = {
  retries: 2,
  retryBaseDelayMs: 10,
  maxRetryDelayMs: 50,
  deadlineMs: 1500,
  headersTimeoutMs: 600,
  connectTimeoutMs: 1000,
};

function contextWith(location: string): OperationContext {
  return {
    paths: fx.world.paths,
    defaults: acmeAt(location),
    fetch: TIMINGS,
    now: () => new Date(clock),
  };
}

beforeEach(async () => {
  ctx = contextWith(fx.acme.url);
  await publishPlugin(fx.acme, 'keep', '1.0.0');
  await install(['keep']);
});

function install(specs: string[], over: Partial<InstallOptions> = {}) {
  return installSpecs(ctx, fx.world.dir, specs, over);
}

async function rejects(specs: string[], code: string): Promise<HookpmError> {
  const before = await hashStore(fx.world.paths);
  let error: unknown;
  try {
    await install(specs);
  } catch (caught) {
    error = caught;
  }
  if (!isHookpmError(error)) throw new Error(`expected a HookpmError, got ${String(error)}`);
  expect(error.code, error.message).toBe(code);
  expect(await hashStore(fx.world.paths)).toEqual(before);
  return error;
}

const cachedIndex = (): Promise<Buffer> =>
  readFile(join(indexCacheDir(fx.world.paths), 'acme.json'));
const tarballRequests = (path: string): number => fx.acme.requests.filter((p) => p === path).length;

describe('security.md Registries and the network, through hookpm install', () => {
  it.each([
    ['HTML', '<!doctype html><html><body>maintenance</body></html>'],
    ['truncated JSON', '{"formatVersion":1,"plugins":{"guard":{"versions":'],
  ])('an index that is %s is E_REGISTRY_SCHEMA; the cached index stays', async (_what, body) => {
    const cached = await cachedIndex();
    fx.acme.handlers.set('/index.json', (_req, res) => res.end(body));
    agePastCache();
    await rejects(['keep'], 'E_REGISTRY_SCHEMA');
    expect(await cachedIndex()).toEqual(cached);
  });

  it.each([
    [
      'versions is an array',
      (doc: any) => (doc.plugins.keep.versions = []),
      'plugins.keep.versions',
    ],
    [
      'integrity is a number',
      (doc: any) => (doc.plugins.keep.versions['1.0.0'].integrity = 5),
      'integrity',
    ],
    [
      'tarball URL javascript:',
      (doc: any) => (doc.plugins.keep.versions['1.0.0'].tarball = 'javascript:alert(1)'),
      'tarball',
    ],
  ])('%s is E_REGISTRY_SCHEMA naming the field path', async (_what, mutate, field) => {
    const doc = structuredClone(fx.acme.index);
    mutate(doc);
    fx.acme.handlers.set('/index.json', (_req, res) => res.end(JSON.stringify(doc)));
    agePastCache();
    const error = await rejects(['keep'], 'E_REGISTRY_SCHEMA');
    expect(error.message).toContain(field);
  });

  it('tarball bytes that do not match integrity are E_INTEGRITY; nothing extracted; the cache untouched', async () => {
    await publishPlugin(fx.acme, 'guard', '1.0.0');
    fx.acme.files.set('/tarballs/guard-1.0.0.tgz', Buffer.from('tampered in transit'));
    const cache = await readdir(tarballCacheDir(fx.world.paths));
    await rejects(['guard'], 'E_INTEGRITY');
    expect(await readdir(tarballCacheDir(fx.world.paths))).toEqual(cache);
    expect(await readdir(join(fx.world.paths.data, '.staging'))).toEqual([]);
  });

  it('an integrity that is sha1 only is E_INTEGRITY (sha512 required)', async () => {
    await publishPlugin(fx.acme, 'guard', '1.0.0', undefined, {
      integrity: 'sha1-2jmj7l5rSw0yVb/vlWAYkK/YBwk=',
    });
    const error = await rejects(['guard'], 'E_INTEGRITY');
    expect(error.message).toContain('sha512');
  });

  it('a body shorter than Content-Length (connection dropped) is E_REGISTRY_NETWORK after bounded retries; nothing promoted', async () => {
    const packed = await publishPlugin(fx.acme, 'guard', '1.0.0');
    fx.acme.handlers.set('/tarballs/guard-1.0.0.tgz', (_req, res) => {
      res.setHeader('content-length', String(packed.bytes.length));
      res.write(packed.bytes.subarray(0, 100));
      setTimeout(() => res.destroy(), 20);
    });
    await rejects(['guard'], 'E_REGISTRY_NETWORK');
    expect(tarballRequests('/tarballs/guard-1.0.0.tgz')).toBe(TIMINGS.retries + 1);
    expect(Object.keys((await readState(fx.world.paths)).plugins)).toEqual(['keep@acme']);
  });

  it('404 is E_NOT_FOUND with no retry', async () => {
    await publishPlugin(fx.acme, 'guard', '1.0.0');
    fx.acme.files.delete('/tarballs/guard-1.0.0.tgz');
    await rejects(['guard'], 'E_NOT_FOUND');
    expect(tarballRequests('/tarballs/guard-1.0.0.tgz')).toBe(1);
  });

  it('503 twice then 200 succeeds after backoff', async () => {
    const packed = await publishPlugin(fx.acme, 'guard', '1.0.0');
    let calls = 0;
    fx.acme.handlers.set('/tarballs/guard-1.0.0.tgz', (_req, res) => {
      calls += 1;
      if (calls <= 2) {
        res.statusCode = 503;
        return res.end();
      }
      res.end(packed.bytes);
    });
    const result = await install(['guard']);
    expect(result.installed[0]).toMatchObject({ id: 'guard@acme', status: 'installed' });
    expect(calls).toBe(3);
  });

  it('a server that sends one byte every 100 ms forever is E_REGISTRY_TIMEOUT at the overall deadline', async () => {
    const packed = await publishPlugin(fx.acme, 'guard', '1.0.0');
    fx.acme.handlers.set('/tarballs/guard-1.0.0.tgz', (_req, res) => {
      // The declared size: a Content-Length that differs from it is refused at once.
      res.setHeader('content-length', String(packed.bytes.length));
      const timer = setInterval(() => res.write('x'), 100);
      res.on('close', () => clearInterval(timer));
    });
    const started = Date.now();
    await rejects(['guard'], 'E_REGISTRY_TIMEOUT');
    expect(Date.now() - started).toBeLessThan(TIMINGS.deadlineMs + 1500);
  });

  it('a server that never sends headers is E_REGISTRY_TIMEOUT', async () => {
    await publishPlugin(fx.acme, 'guard', '1.0.0');
    fx.acme.handlers.set('/tarballs/guard-1.0.0.tgz', () => undefined);
    await rejects(['guard'], 'E_REGISTRY_TIMEOUT');
  });

  it('an index of 500 MB is E_REGISTRY_TOO_LARGE without reading it all', async () => {
    let sent = 0;
    fx.acme.handlers.set('/index.json', (_req, res) => {
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      const pump = (): void => {
        while (sent < 500 * 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('close', () => (sent = Math.max(sent, 0)));
      pump();
    });
    const cached = await cachedIndex();
    agePastCache();
    await rejects(['keep'], 'E_REGISTRY_TOO_LARGE');
    expect(sent).toBeLessThan(64 * 1024 * 1024);
    expect(await cachedIndex()).toEqual(cached);
  });

  it("section 7 step 2: a tarball longer than its index entry's size is cut off as soon as it passes it (E_INTEGRITY); nothing cached", async () => {
    const packed = await publishPlugin(fx.acme, 'guard', '1.0.0');
    const chunk = 64 * 1024;
    let sent = 0;
    fx.acme.handlers.set('/tarballs/guard-1.0.0.tgz', (_req, res) => {
      // No Content-Length: the body is the tarball, then 32 MiB more, written as the reader takes it.
      res.write(packed.bytes);
      const pump = (): void => {
        while (sent < 32 * 1024 * 1024) {
          sent += chunk;
          if (!res.write(Buffer.alloc(chunk))) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
    });
    const cache = await readdir(tarballCacheDir(fx.world.paths));
    const error = await rejects(['guard'], 'E_INTEGRITY');
    expect(error.message).toContain(
      `larger than the ${packed.bytes.length} bytes its index entry declares`,
    );
    // Reading stopped at the chunk that passed the size, long before the server's end.
    expect(error.details['found']).toBeLessThanOrEqual(packed.bytes.length + chunk);
    expect(sent).toBeLessThan(32 * 1024 * 1024);
    expect(await readdir(tarballCacheDir(fx.world.paths))).toEqual(cache);
    expect(tarballRequests('/tarballs/guard-1.0.0.tgz')).toBe(1);
  });

  it("section 7 step 2: a Content-Length other than the index entry's size is E_INTEGRITY before the body is read", async () => {
    const packed = await publishPlugin(fx.acme, 'guard', '1.0.0');
    fx.acme.files.set(
      '/tarballs/guard-1.0.0.tgz',
      Buffer.concat([packed.bytes, Buffer.alloc(4096)]),
    );
    const error = await rejects(['guard'], 'E_INTEGRITY');
    expect(error.message).toContain(
      `not the ${packed.bytes.length} bytes its index entry declares`,
    );
  });

  it('a range that matches nothing is E_NO_MATCHING_VERSION listing the nearest versions', async () => {
    const error = await rejects(['keep@^2.0.0'], 'E_NO_MATCHING_VERSION');
    expect(error.details['nearest']).toEqual(['1.0.0']);
  });

  it('^1.0.0 when 1.1.0-beta.1 is newest installs 1.0.0', async () => {
    await publishPlugin(fx.acme, 'guard', '1.0.0');
    await publishPlugin(fx.acme, 'guard', '1.1.0-beta.1');
    const result = await install(['guard@^1.0.0']);
    expect(result.installed[0]).toMatchObject({ version: '1.0.0' });
  });

  it('an http registry or tarball URL off loopback is E_INSECURE_URL, before any request', async () => {
    ctx = contextWith('http://registry.example.com/');
    await rejects(['keep'], 'E_INSECURE_URL');
    ctx = contextWith(fx.acme.url);
    await rejects(['http://registry.example.com/x.tgz'], 'E_INSECURE_URL');
    await publishPlugin(fx.acme, 'guard', '1.0.0', undefined, {
      tarball: 'http://registry.example.com/guard.tgz',
    });
    await rejects(['guard'], 'E_INSECURE_URL');
  });
});
