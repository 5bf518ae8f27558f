import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  pathSegments,
  serveRegistry,
  type RegistryServer,
  type ServedRequest,
} from '../../src/registry/http/http-server.js';
import { BIN, ensureBuilt } from '../helpers/built-bin.js';
import { startChild } from '../helpers/child.js';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A raw request: the path goes on the wire exactly as given (no URL normalisation). */
function get(
  port: number,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

const INDEX_JSON = '{"formatVersion":1,"plugins":{}}\n';
let base: string;
let server: RegistryServer;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'hookpm-serve-'));
  const root = join(base, 'registry');
  await mkdir(join(root, 'tarballs'), { recursive: true });
  await writeFile(join(root, 'index.json'), INDEX_JSON);
  await writeFile(join(root, 'index.html'), '<!doctype html><title>x</title>\n');
  await writeFile(join(root, 'tarballs', 'a-1.0.0.tgz'), Buffer.from([0x1f, 0x8b, 8, 0]));
  await writeFile(join(root, 'notes.bin'), 'raw');
  await writeFile(join(base, 'secret.txt'), 'secret\n');
  await symlink(join(base, 'secret.txt'), join(root, 'leak.json'));
  // A registry kept in git: its remote's URL may hold a token.
  await mkdir(join(root, '.git'));
  await writeFile(join(root, '.git', 'config'), 'url = https://user:secret@git.example/r\n');
  await writeFile(join(root, 'tarballs', '.build.lock'), 'secret\n');
  server = await serveRegistry(root);
});

afterAll(async () => {
  await server?.close();
  await rm(base, { recursive: true, force: true });
});

describe('registry serve (cli.md): a registry directory over HTTP on 127.0.0.1', () => {
  it('listens on 127.0.0.1 only', () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/`);
  });

  it('serves index.json, index.html (also at /), tarballs and other files with their content types', async () => {
    const cases: Array<[string, string, string]> = [
      ['/index.json', 'application/json; charset=utf-8', '{"formatVersion":1,"plugins":{}}\n'],
      ['/', 'text/html; charset=utf-8', '<!doctype html><title>x</title>\n'],
      ['/index.html?v=1', 'text/html; charset=utf-8', '<!doctype html><title>x</title>\n'],
      ['/tarballs/a-1.0.0.tgz', 'application/gzip', '\u001f\u008b\u0008\u0000'],
      ['/notes.bin', 'application/octet-stream', 'raw'],
    ];
    for (const [path, type, body] of cases) {
      const reply = await get(server.port, path);
      expect(reply.status, path).toBe(200);
      expect(reply.headers['content-type'], path).toBe(type);
      expect(reply.headers['x-content-type-options']).toBe('nosniff');
      expect(reply.body.toString('latin1'), path).toBe(body);
    }
  });

  it('cli.md: a registry directory that is a symlink re-pointed to a new build (an atomic deploy) is served from the new build; one gone is 404', async () => {
    const site = join(base, 'site');
    for (const build of ['v1', 'v2']) {
      await mkdir(join(base, build), { recursive: true });
      await writeFile(join(base, build, 'index.json'), `{"name":"${build}"}\n`);
    }
    await symlink(join(base, 'v1'), site);
    const deployed = await serveRegistry(site);
    try {
      expect((await get(deployed.port, '/index.json')).body.toString()).toBe('{"name":"v1"}\n');
      await symlink(join(base, 'v2'), `${site}.next`);
      await rename(`${site}.next`, site);
      expect((await get(deployed.port, '/index.json')).body.toString()).toBe('{"name":"v2"}\n');
      await rm(site);
      expect((await get(deployed.port, '/index.json')).status).toBe(404);
    } finally {
      await deployed.close();
    }
  });

  it('N4: a strong ETag from the content; If-None-Match with it gives 304 and no body; a changed file gets a new ETag', async () => {
    const first = await get(server.port, '/index.json');
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
    expect((await get(server.port, '/index.json')).headers.etag).toBe(etag);
    const cached = await get(server.port, '/index.json', { 'If-None-Match': `"other", ${etag}` });
    expect(cached.status).toBe(304);
    expect(cached.body.length).toBe(0);
    expect(cached.headers.etag).toBe(etag);
    expect((await get(server.port, '/index.json', { 'If-None-Match': '"other"' })).status).toBe(
      200,
    );
    await writeFile(
      join(base, 'registry', 'index.json'),
      '{"formatVersion":1,"plugins":{},"name":"x"}\n',
    );
    const changed = await get(server.port, '/index.json', { 'If-None-Match': etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
  });

  it('security.md: traversal (.., encoded %2e%2e and %2f, absolute, backslash, NUL), dotfiles and symlinks leaving the directory are 404', async () => {
    const attempts = [
      '/../secret.txt',
      '/tarballs/../../secret.txt',
      '/%2e%2e/secret.txt',
      '/%2E%2E%2Fsecret.txt',
      '/tarballs/%2e%2e/%2e%2e/secret.txt',
      '/..%5csecret.txt',
      '//etc/passwd',
      '/%2fetc%2fpasswd',
      'http://127.0.0.1/../secret.txt',
      '/index.json%00.html',
      '/leak.json',
      '/tarballs',
      '/tarballs/',
      '/missing.json',
      '/%zz',
      '/.git/config',
      '/%2egit/config',
      '/tarballs/.build.lock',
    ];
    for (const path of attempts) {
      const reply = await get(server.port, path);
      expect(reply.status, path).toBe(404);
      expect(reply.body.toString(), path).not.toContain('secret');
    }
    expect(pathSegments('/a/./b')).toBeNull();
    expect(pathSegments('/tarballs/a%20b.tgz')).toEqual(['tarballs', 'a b.tgz']);
  });

  it('D7, security.md: a file swapped for a symlink leading out or a FIFO while requests run is never served, and no request waits', async () => {
    const dir = join(base, 'registry', 'swapped');
    await mkdir(dir);
    // Another process keeps replacing swapped/x.json (rename, atomic): a regular file, a symlink
    // to a file outside the directory, a FIFO no one writes.
    const swapper = startChild(
      process.execPath,
      [
        '-e',
        `const fs = require('node:fs'); const { execFileSync } = require('node:child_process');
        const dir = process.argv[1]; let n = 0; console.log('ready');
        for (;;) {
          const tmp = dir + '/t' + (n++ % 64); fs.rmSync(tmp, { force: true });
          if (n % 3 === 0) fs.writeFileSync(tmp, '{"ok":true}');
          else if (n % 3 === 1) fs.symlinkSync(process.argv[2], tmp);
          else execFileSync('mkfifo', [tmp]);
          fs.renameSync(tmp, dir + '/x.json');
        }`,
        dir,
        join(base, 'secret.txt'),
      ],
      { PATH: process.env['PATH'] ?? '' },
    );
    try {
      await swapper.waitForLine((line) => line === 'ready');
      const statuses = new Set<number>();
      for (let round = 0; round < 50; round++) {
        const replies = await Promise.all(
          Array.from({ length: 8 }, () => get(server.port, '/swapped/x.json')),
        );
        for (const reply of replies) {
          statuses.add(reply.status);
          expect(reply.body.toString()).not.toContain('secret');
        }
      }
      expect([...statuses].every((status) => status === 200 || status === 404)).toBe(true);
    } finally {
      swapper.proc.kill('SIGKILL');
      await swapper.exited;
    }
  });

  it('N10, bounded: a client that stops reading holds a chunk of a large file, not the file; the file is streamed whole to one that reads', async () => {
    const size = 48 * 1024 * 1024;
    const big = Buffer.alloc(size, 7);
    await writeFile(join(base, 'registry', 'tarballs', 'big-1.0.0.tgz'), big);
    const whole = await get(server.port, '/tarballs/big-1.0.0.tgz');
    expect(whole.headers['content-length']).toBe(String(size));
    expect(whole.body.equals(big)).toBe(true);
    const before = process.memoryUsage().arrayBuffers;
    // Eight clients ask for it and read nothing: each answer waits on its client.
    const stalled = await Promise.all(
      Array.from(
        { length: 8 },
        () =>
          new Promise<ReturnType<typeof connect>>((resolve) => {
            const socket = connect(server.port, '127.0.0.1', () =>
              socket.write('GET /tarballs/big-1.0.0.tgz HTTP/1.1\r\nHost: x\r\n\r\n'),
            );
            socket.once('readable', () => resolve(socket));
          }),
      ),
    );
    try {
      // Less than one copy of the file for all eight.
      expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(size);
    } finally {
      for (const socket of stalled) socket.destroy();
    }
  });

  it('bounded: a client that stops reading is dropped once it has read nothing for idleTimeoutMs', async () => {
    // Larger than what the sockets' buffers take in, so the response cannot finish unread.
    await writeFile(
      join(base, 'registry', 'tarballs', 'idle-1.0.0.tgz'),
      Buffer.alloc(48 * 1024 * 1024, 1),
    );
    const seen: ServedRequest[] = [];
    const idle = await serveRegistry(join(base, 'registry'), {
      idleTimeoutMs: 100,
      onRequest: (r) => seen.push(r),
    });
    const socket = connect(idle.port, '127.0.0.1', () =>
      socket.write('GET /tarballs/idle-1.0.0.tgz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'),
    );
    socket.pause();
    try {
      // The server ends the response it could not finish (its side of the connection closed).
      await expect.poll(() => seen.length, { timeout: 5_000 }).toBe(1);
      expect(seen[0]).toMatchObject({ path: '/tarballs/idle-1.0.0.tgz', status: 200, bytes: 0 });
    } finally {
      socket.destroy();
      await idle.close();
    }
  });

  it('security.md: a Host that is not a loopback name (DNS rebinding) is 421, and the file is not sent', async () => {
    const port = String(server.port);
    for (const host of [
      '127.0.0.1',
      `127.0.0.1:${port}`,
      'LOCALHOST',
      `localhost:${port}`,
      `[::1]:${port}`,
    ]) {
      const reply = await get(server.port, '/index.json', { Host: host });
      expect([host, reply.status]).toEqual([host, 200]);
    }
    const hostile = [
      'evil.example',
      `evil.example:${port}`,
      '127.0.0.1.evil.example',
      'localhost.evil.example:80',
      '10.0.0.1',
    ];
    for (const host of hostile) {
      const reply = await get(server.port, '/index.json', { Host: host });
      expect([host, reply.status]).toEqual([host, 421]);
      expect(reply.body.toString()).not.toContain('formatVersion');
    }
    // HTTP/1.0 lets a request name no Host at all: refused the same way.
    const raw = await new Promise<string>((resolve) => {
      let text = '';
      const socket = connect(server.port, '127.0.0.1', () =>
        socket.write('GET /index.json HTTP/1.0\r\n\r\n'),
      );
      socket.on('data', (c: Buffer) => (text += c.toString()));
      socket.on('close', () => resolve(text));
    });
    expect(raw).toMatch(/^HTTP\/1\.1 421 /);
    expect(raw).not.toContain('formatVersion');
  });

  it('bounded: a client sending its headers a byte at a time (slowloris) is dropped at headersTimeoutMs', async () => {
    const slow = await serveRegistry(join(base, 'registry'), { headersTimeoutMs: 200 });
    const socket = connect(slow.port, '127.0.0.1', () =>
      socket.write('GET /index.json HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: '),
    );
    socket.on('error', () => undefined);
    const drip = setInterval(() => socket.writable && socket.write('a'), 20);
    try {
      await new Promise<void>((resolve) => socket.once('close', () => resolve()));
    } finally {
      clearInterval(drip);
      socket.destroy();
      await slow.close();
    }
  });

  it('bounded: past maxConnections a new connection is closed as it opens', async () => {
    const full = await serveRegistry(join(base, 'registry'), { maxConnections: 2 });
    const open = async (): Promise<{ socket: ReturnType<typeof connect>; reply: string }> => {
      const socket = connect(full.port, '127.0.0.1', () =>
        socket.write('GET /index.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'),
      );
      socket.on('error', () => undefined);
      const reply = await new Promise<string>((resolve) => {
        socket.once('data', (c: Buffer) => resolve(c.toString()));
        socket.once('close', () => resolve(''));
      });
      return { socket, reply };
    };
    const held = [await open(), await open()];
    try {
      expect(held.map((h) => h.reply.slice(0, 12))).toEqual(['HTTP/1.1 200', 'HTTP/1.1 200']);
      const third = await open();
      third.socket.destroy();
      expect(third.reply).toBe('');
    } finally {
      for (const h of held) h.socket.destroy();
      await full.close();
    }
  });

  it('HEAD has the headers without a body; other methods are 405', async () => {
    const head = await get(server.port, '/index.html', {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(String('<!doctype html><title>x</title>\n'.length));
    expect(head.body.length).toBe(0);
    const post = await get(server.port, '/index.json', {}, 'POST');
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
  });

  it('`hookpm registry serve <dir> --json` prints the URL, serves, and exits 0 on SIGTERM', async () => {
    ensureBuilt();
    const child = spawn(
      process.execPath,
      [BIN, 'registry', 'serve', join(base, 'registry'), '--json'],
      {
        env: { ...process.env, HOME: base, HOOKPM_HOME: join(base, 'home') },
      },
    );
    let stdout = '';
    const printed = new Promise<string>((resolve) => {
      child.stdout.on('data', (c: Buffer) => {
        stdout += c.toString();
        if (stdout.includes('}')) resolve(stdout);
      });
    });
    const exited = new Promise<number | null>((resolve) =>
      child.on('exit', (code) => resolve(code)),
    );
    const { url, port } = JSON.parse(await printed) as { url: string; port: number };
    expect(url).toBe(`http://127.0.0.1:${port}/`);
    expect((await get(port, '/tarballs/a-1.0.0.tgz')).status).toBe(200);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('onRequest sees each request once: method, raw path, status, body bytes and time', async () => {
    const indexBytes = (await readFile(join(base, 'registry', 'index.json'))).length;
    const seen: ServedRequest[] = [];
    const logged = await serveRegistry(join(base, 'registry'), { onRequest: (r) => seen.push(r) });
    try {
      const index = await get(logged.port, '/index.json');
      await get(logged.port, '/index.json', { 'If-None-Match': String(index.headers.etag) });
      await get(logged.port, '/index.html', {}, 'HEAD');
      await get(logged.port, '/%2e%2e/secret.txt');
      await expect.poll(() => seen.length).toBe(4);
    } finally {
      await logged.close();
    }
    expect(seen.map(({ durationMs: _ms, ...rest }) => rest)).toEqual([
      { method: 'GET', path: '/index.json', status: 200, bytes: indexBytes },
      { method: 'GET', path: '/index.json', status: 304, bytes: 0 },
      { method: 'HEAD', path: '/index.html', status: 200, bytes: 0 },
      { method: 'GET', path: '/%2e%2e/secret.txt', status: 404, bytes: 'not found\n'.length },
    ]);
    for (const r of seen) expect(r.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('`hookpm registry serve` logs one line per request on stderr, and none with --quiet', async () => {
    ensureBuilt();
    const start = (quiet: boolean) => {
      const child = spawn(
        process.execPath,
        [BIN, 'registry', 'serve', join(base, 'registry'), '--json', ...(quiet ? ['--quiet'] : [])],
        { env: { ...process.env, HOME: base, HOOKPM_HOME: join(base, 'home') } },
      );
      let stdout = '';
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      const printed = new Promise<{ port: number }>((resolve) => {
        child.stdout.on('data', (c: Buffer) => {
          stdout += c.toString();
          if (stdout.includes('}')) resolve(JSON.parse(stdout) as { port: number });
        });
      });
      const exited = new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
      return { child, printed, exited, stderr: () => stderr };
    };
    const indexBytes = (await readFile(join(base, 'registry', 'index.json'))).length;
    const loud = start(false);
    const { port } = await loud.printed;
    await get(port, '/index.json');
    await get(port, '/missing\u0007.json'.replace('\u0007', '%07'));
    await expect.poll(() => loud.stderr().split('\n').filter(Boolean).length).toBe(2);
    loud.child.kill('SIGTERM');
    expect(await loud.exited).toBe(0);
    const lines = loud.stderr().split('\n').filter(Boolean);
    expect(lines[0]).toMatch(
      new RegExp(`^GET /index\\.json 200 ${indexBytes} B \\d+(\\.\\d)? ms$`),
    );
    expect(lines[1]).toMatch(/^GET \/missing%07\.json 404 10 B \d+(\.\d)? ms$/);

    const quiet = start(true);
    const second = await quiet.printed;
    await get(second.port, '/index.json');
    quiet.child.kill('SIGTERM');
    expect(await quiet.exited).toBe(0);
    expect(quiet.stderr()).toBe('');
  });
});
