/**
 * A real Verdaccio (a private npm registry) on 127.0.0.1 for tests, pinned to VERDACCIO_VERSION, run
 * by the pinned Node 24 of test/tools/node-24.mjs (it needs Node 22 or later) and installed on first use into the test package cache outside the checkout
 * (test/agents/agent-cache.ts: `npm install --prefix`), never a dependency of hookpm. Each start
 * writes its own config, storage and htpasswd file into a temporary directory:
 *
 * - `@acme/*` packages need a logged-in user to read and to publish (`$authenticated`);
 * - any other package is readable by anyone, publishable by a logged-in user;
 * - no uplinks: nothing is ever fetched from the internet;
 * - users are made through the registry's own adduser endpoint (`addUser`), which answers with the
 *   bearer token npm would store.
 *
 * `publish` runs the real `npm publish` against it, with a throwaway user config holding the token.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { installCachedPackage, packageDirIn } from '../agents/agent-cache.js';
// @ts-expect-error: a plain ES module of the test tools, without type declarations
import { node24 } from '../tools/node-24.mjs';

export const VERDACCIO_VERSION = '6.10.4';
/** A first-use install (npm) plus the start; later starts take a few seconds. */
export const VERDACCIO_START_TIMEOUT_MS = 10 * 60_000;

export interface Verdaccio {
  /** `http://127.0.0.1:<port>/`, ending in `/`. */
  url: string;
  /** `//127.0.0.1:<port>/`: the key prefix of credentials in an `.npmrc`. */
  nerfDart: string;
  /** Registers a user (adduser endpoint) and returns its bearer token. */
  addUser(name: string, password: string): Promise<string>;
  /** `npm publish` of `dir` (a package directory) with `token`; rejects with npm's stderr. */
  publish(dir: string, token: string): Promise<void>;
  /** Writes `files` (relative path -> content, a package.json among them) and publishes them. */
  publishFiles(files: Readonly<Record<string, string>>, token: string): Promise<void>;
  /** What Verdaccio wrote to stdout and stderr (warnings and errors only). */
  log(): string;
  stop(): Promise<void>;
}

export async function startVerdaccio(): Promise<Verdaccio> {
  const cache = await installCachedPackage('verdaccio', VERDACCIO_VERSION);
  const bin = join(packageDirIn(cache, 'verdaccio'), 'bin', 'verdaccio');
  const dir = await mkdtemp(join(tmpdir(), 'hookpm-verdaccio-'));
  const port = await freePort();
  const config = join(dir, 'config.yaml');
  await writeFile(
    config,
    [
      `storage: ${JSON.stringify(join(dir, 'storage'))}`,
      'auth:',
      '  htpasswd:',
      `    file: ${JSON.stringify(join(dir, 'htpasswd'))}`,
      '    max_users: 100',
      'uplinks: {}',
      'packages:',
      "  '@acme/*':",
      '    access: $authenticated',
      '    publish: $authenticated',
      "  '**':",
      '    access: $all',
      '    publish: $authenticated',
      'log: { type: stdout, format: pretty, level: warn }',
      '',
    ].join('\n'),
  );
  let output = '';
  // Verdaccio 6.10 needs Node 22 or later: it runs on the tools' pinned Node 24 (node-24.mjs).
  const node = (node24 as () => string)();
  const child = spawn(node, [bin, '--config', config, '--listen', `127.0.0.1:${port}`], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', HOME: dir, NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const url = `http://127.0.0.1:${port}/`;
  const stop = async (): Promise<void> => {
    await stopChild(child);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await waitReady(url, child, () => output);
  } catch (error) {
    await stop();
    throw error;
  }
  const registry: Verdaccio = {
    url,
    nerfDart: `//127.0.0.1:${port}/`,
    log: () => output,
    stop,
    async addUser(name, password) {
      const res = await fetch(`${url}-/user/org.couchdb.user:${encodeURIComponent(name)}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name, password, type: 'user', roles: [] }),
      });
      const body = (await res.json()) as { token?: string };
      if (res.status !== 201 || typeof body.token !== 'string')
        throw new Error(`verdaccio adduser ${name}: HTTP ${res.status} ${JSON.stringify(body)}`);
      return body.token;
    },
    async publish(pkgDir, token) {
      const userconfig = join(dir, `publish-${Math.random().toString(36).slice(2)}.npmrc`);
      await mkdir(dirname(userconfig), { recursive: true });
      await writeFile(userconfig, `registry=${url}\n//127.0.0.1:${port}/:_authToken=${token}\n`);
      await runNpm(['publish', '--registry', url], pkgDir, {
        PATH: process.env.PATH ?? '',
        HOME: dir,
        npm_config_userconfig: userconfig,
        npm_config_update_notifier: 'false',
        npm_config_audit: 'false',
        npm_config_fund: 'false',
      });
      await rm(userconfig, { force: true });
    },
    async publishFiles(files, token) {
      const pkg = await mkdtemp(join(dir, 'package-'));
      for (const [path, content] of Object.entries(files)) {
        const full = join(pkg, ...path.split('/'));
        await mkdir(dirname(full), { recursive: true });
        await writeFile(full, content);
      }
      await registry.publish(pkg, token);
      await rm(pkg, { recursive: true, force: true });
    },
  };
  return registry;
}

async function waitReady(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`verdaccio exited (${child.exitCode}):\n${log()}`);
    const ok = await fetch(`${url}-/ping`).then(
      (res) => res.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((done) => setTimeout(done, 200));
  }
  throw new Error(`verdaccio did not answer at ${url} within 60 s:\n${log()}`);
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(timer);
      done();
    });
    child.kill('SIGTERM');
  });
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => done(port));
    });
  });
}

function runNpm(args: string[], cwd: string, env: Record<string, string>): Promise<void> {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  return new Promise((done, fail) => {
    const child = spawn(npm, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stdout.resume();
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', fail);
    child.on('close', (code) =>
      code === 0 ? done() : fail(new Error(`npm ${args.join(' ')} failed (${code}):\n${stderr}`)),
    );
  });
}
