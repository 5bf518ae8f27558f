import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile, chmod, mkdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CLONE_LIMITS,
  treeCounter,
  type CloneLimits,
} from '../../src/registry/git/git-clone-limits.js';
import { cloneShallow, findRepositoryRoot } from '../../src/registry/git/git-fetch.js';
import { runGit } from '../../src/registry/git/git-run.js';
import { commitFiles, git, gitTestEnv, makeRepo, requireGit } from '../helpers/git-repo.js';
import { INSTALL_TIMEOUT_MS } from '../helpers/system-package.js';
import { failure } from '../helpers/failure.js';

let tmp: string;
let env: Record<string, string>;
let repo: string;
let first: string;
let second: string;
let feature: string;

beforeAll(requireGit, INSTALL_TIMEOUT_MS);
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'hookpm-git-'));
  env = gitTestEnv(join(tmp, 'home'));
  await mkdir(join(tmp, 'home'));
  repo = join(tmp, 'origin');
  first = await makeRepo(repo, env, { 'plugin.json': '{"name":"one","version":"1.0.0"}\n' });
  second = await commitFiles(
    repo,
    env,
    { 'plugin.json': '{"name":"one","version":"2.0.0"}\n' },
    'two',
  );
  git(repo, env, 'checkout', '-q', '-b', 'feature');
  feature = await commitFiles(repo, env, { 'feature.txt': 'on feature\n' }, 'feature');
  git(repo, env, 'checkout', '-q', 'main');
});

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

let counter = 0;
function dest(): string {
  counter += 1;
  return join(tmp, `clone-${counter}`);
}

describe('cloneShallow (registry.md 1: marketplaces and git sources)', () => {
  it('clones the default branch of a file:// repository shallow and reports its commit', async () => {
    const clone = await cloneShallow(pathToFileURL(repo).href, {
      dest: dest(),
      timeoutMs: 30_000,
      env,
    });
    expect(clone.commit).toBe(second);
    expect(await readFile(join(clone.dir, 'plugin.json'), 'utf8')).toContain('2.0.0');
    expect(git(clone.dir, env, 'rev-list', '--count', 'HEAD')).toBe('1');
  });

  it('checks out a named ref, and a pinned sha that is not a branch tip', async () => {
    const byRef = await cloneShallow(repo, {
      ref: 'feature',
      dest: dest(),
      timeoutMs: 30_000,
      env,
    });
    expect(byRef.commit).toBe(feature);
    expect(existsSync(join(byRef.dir, 'feature.txt'))).toBe(true);
    const bySha = await cloneShallow(pathToFileURL(repo).href, {
      sha: first,
      dest: dest(),
      timeoutMs: 30_000,
      env,
    });
    expect(bySha.commit).toBe(first);
    expect(await readFile(join(bySha.dir, 'plugin.json'), 'utf8')).toContain('1.0.0');
  });

  it('a pinned sha the repository does not hold is E_GIT naming it, not git\'s "not a tree object"', async () => {
    const missing = 'a'.repeat(40);
    const target = dest();
    const error = await failure(
      cloneShallow(pathToFileURL(repo).href, {
        dest: target,
        timeoutMs: 30_000,
        env,
        sha: missing,
      }),
    );
    expect(error.code).toBe('E_GIT');
    expect(error.message).toContain(`the commit ${missing} is not in the repository`);
    expect(error.message).not.toContain('not a tree object');
    expect(existsSync(target)).toBe(false);
  });

  it('a repository path starting with "--" is a path, never an option to git', async () => {
    const hostile = join(tmp, '--upload-pack=touch pwned');
    await makeRepo(hostile, env, { 'x.txt': 'x\n' });
    const clone = await cloneShallow(hostile, { dest: dest(), timeoutMs: 30_000, env });
    expect(existsSync(join(clone.dir, 'x.txt'))).toBe(true);
    expect(existsSync(join(tmp, 'pwned'))).toBe(false);
  });

  it('a ref or URL starting with "-" is refused before git runs', async () => {
    const target = dest();
    const ref = await failure(
      cloneShallow(repo, {
        ref: `--upload-pack=touch ${join(tmp, 'pwned2')}`,
        dest: target,
        timeoutMs: 30_000,
        env,
      }),
    );
    expect(ref.code).toBe('E_USAGE');
    const url = await failure(
      cloneShallow('--upload-pack=touch pwned3', { dest: target, timeoutMs: 30_000, env }),
    );
    expect(url.code).toBe('E_REGISTRY_SCHEMA');
    expect(existsSync(join(tmp, 'pwned2'))).toBe(false);
    expect(existsSync(target)).toBe(false);
  });

  it.each([
    ['http://example.com/x.git', 'E_INSECURE_URL'],
    ['git://example.com/x.git', 'E_INSECURE_URL'],
    ['ssh://-oProxyCommand=touch%20pwned/x.git', 'E_REGISTRY_SCHEMA'],
    ['ssh://git:secret@example.com/x.git', 'E_REGISTRY_SCHEMA'],
    ['ssh://-l@example.com/x.git', 'E_REGISTRY_SCHEMA'],
    ['ssh://example.com:99999/x.git', 'E_REGISTRY_SCHEMA'],
    ['ssh://example.com/a/../x.git', 'E_REGISTRY_SCHEMA'],
    ['ssh://example.com/-x.git', 'E_REGISTRY_SCHEMA'],
    ['SSH://example.com/x.git', 'E_REGISTRY_SCHEMA'],
    ['ext::sh -c touch% /tmp/hookpm-pwned', 'E_REGISTRY_SCHEMA'],
    ['file://remote-host/x.git', 'E_REGISTRY_SCHEMA'],
  ])('URL policy: %s is refused with %s', async (url, code) => {
    expect((await failure(cloneShallow(url, { dest: dest(), timeoutMs: 30_000, env }))).code).toBe(
      code,
    );
  });

  it('an ssh:// URL with a login and a port clones over ssh, run non-interactively (registry.md, registry kinds)', async () => {
    // No ssh server runs here: a stand-in `ssh` on PATH records how git called it and runs the
    // remote command (git-upload-pack) on this machine, as sshd would on the host.
    const bin = join(tmp, 'ssh-bin');
    await mkdir(bin, { recursive: true });
    const log = join(tmp, 'ssh-args');
    await writeFile(
      join(bin, 'ssh'),
      '#!/bin/sh\nprintf "%s\\n" "$@" > "$SSH_ARGS_LOG"\nfor last; do :; done\nexec sh -c "$last"\n',
    );
    await chmod(join(bin, 'ssh'), 0o755);
    const sshEnv = { ...env, PATH: `${bin}:${env.PATH ?? process.env.PATH}`, SSH_ARGS_LOG: log };
    const clone = await cloneShallow(`ssh://git@example.test:2222${repo}`, {
      dest: dest(),
      timeoutMs: 30_000,
      env: sshEnv,
    });
    expect(clone.commit).toBe(second);
    const args = (await readFile(log, 'utf8')).split('\n');
    expect(args).toEqual(expect.arrayContaining(['BatchMode=yes', '2222', 'git@example.test']));
  });

  it('URL policy: a 200 KB URL (or path) is refused before git runs, quoted in 200 characters', async () => {
    const long = 'a'.repeat(200_000);
    for (const url of [`https://example.com/${long}`, `/${long}`]) {
      const target = dest();
      const error = await failure(cloneShallow(url, { dest: target, timeoutMs: 30_000, env }));
      expect(error.code).toBe('E_REGISTRY_SCHEMA');
      expect(error.message).toContain('is longer than 2048 characters');
      expect(error.message.length).toBeLessThan(400);
      expect(existsSync(target)).toBe(false);
    }
  });

  it('runGit never throws: arguments the system refuses to start git with are a reason', async () => {
    const ctx = { env, deadline: Date.now() + 30_000 };
    for (const args of [
      ['version', 'a'.repeat(200_000)],
      ['version', 'nul\u0000byte'],
    ]) {
      const outcome = await runGit(args, ctx);
      expect(outcome.ok).toBe(false);
      expect(outcome.ok ? '' : outcome.reason).toMatch(/^cannot start git: /);
    }
  });

  it('repository hooks configured by the user never run during a clone', async () => {
    const hooks = join(tmp, 'user-hooks');
    await mkdir(hooks, { recursive: true });
    const marker = join(tmp, 'hook-ran');
    await writeFile(join(hooks, 'post-checkout'), `#!/bin/sh\ntouch '${marker}'\n`);
    await chmod(join(hooks, 'post-checkout'), 0o755);
    const withHooks = {
      ...env,
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'core.hooksPath',
      GIT_CONFIG_VALUE_0: hooks,
    };
    await cloneShallow(repo, { dest: dest(), timeoutMs: 30_000, env: withHooks });
    expect(existsSync(marker)).toBe(false);
  });

  it('GIT_DIR or GIT_TEMPLATE_DIR in the environment never redirect the clone', async () => {
    const other = join(tmp, 'other');
    const otherHead = await makeRepo(other, env, { 'o.txt': 'o\n' });
    const hostileEnv = {
      ...env,
      GIT_DIR: join(other, '.git'),
      GIT_WORK_TREE: other,
      GIT_TEMPLATE_DIR: join(tmp, 'user-hooks'),
    };
    const clone = await cloneShallow(repo, { dest: dest(), timeoutMs: 30_000, env: hostileEnv });
    expect(clone.commit).toBe(second);
    expect(git(other, env, 'rev-parse', 'HEAD')).toBe(otherHead);
    expect(git(other, env, 'status', '--porcelain')).toBe('');
  });

  it('a missing repository is E_GIT naming the URL, and the destination is removed', async () => {
    const target = dest();
    const error = await failure(
      cloneShallow(pathToFileURL(join(tmp, 'nope')).href, { dest: target, timeoutMs: 30_000, env }),
    );
    expect(error.code).toBe('E_GIT');
    expect(error.message).toContain('nope');
    expect(existsSync(target)).toBe(false);
  });

  it('N5 and no prompts: a server asking for credentials fails at once, the password never shown', async () => {
    const server: Server = createServer((_req, res) => {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="x"' });
      res.end();
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const { port } = server.address() as { port: number };
    try {
      const started = Date.now();
      const error = await failure(
        cloneShallow(`http://alice:s3cret@127.0.0.1:${port}/r.git`, {
          dest: dest(),
          timeoutMs: 20_000,
          env,
        }),
      );
      expect(error.code).toBe('E_GIT');
      expect(error.message).not.toContain('s3cret');
      expect(Date.now() - started).toBeLessThan(15_000);
    } finally {
      server.close();
    }
  });

  it("a credential helper's daemon of another session holding git's stderr does not hold the clone: E_GIT at once", async () => {
    const server: Server = createServer((_req, res) => {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="x"' });
      res.end();
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const { port } = server.address() as { port: number };
    const home = join(tmp, 'daemon-home');
    const pidFile = join(home, 'daemon.pid');
    await mkdir(home, { recursive: true });
    await writeFile(
      join(home, '.gitconfig'),
      `[credential]\n\thelper = "!f() { setsid sleep 60 >/dev/null & echo $! > ${pidFile}; }; f"\n`,
    );
    try {
      const error = await failure(
        cloneShallow(`http://127.0.0.1:${port}/r.git`, {
          dest: dest(),
          timeoutMs: 20_000,
          env: { ...env, HOME: home },
        }),
      );
      expect(error.code).toBe('E_GIT');
      expect(error.message).toContain('could not read Username');
    } finally {
      server.close();
      const pid = Number((await readFile(pidFile, 'utf8').catch(() => '')).trim());
      if (pid > 0) process.kill(pid, 'SIGKILL');
    }
  });

  it("N5: GIT_TRACE*, GIT_CURL_VERBOSE of the user's environment neither hide git's reason nor write a helper's header anywhere", async () => {
    // A server that reads the request, headers and all, then closes without an answer.
    const server: TcpServer = createTcpServer((socket) =>
      socket.once('data', () => socket.destroy()),
    );
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const { port } = server.address() as { port: number };
    const traceFile = join(tmp, 'curl-trace.log');
    const auth = { headersHelper: `echo '{"X-Api-Key":"sk_live_traced"}'` };
    try {
      for (const trace of [
        { GIT_TRACE2: '1', GIT_TRACE2_PERF: '1', GIT_TRACE: '1' },
        { GIT_CURL_VERBOSE: '1', GIT_TRACE_REDACT: '0' },
        { GIT_TRACE_CURL: traceFile, GIT_TRACE_PACKET: traceFile },
      ]) {
        const error = await failure(
          cloneShallow(`http://127.0.0.1:${port}/r.git`, {
            dest: dest(),
            timeoutMs: 20_000,
            env: { ...env, ...trace },
            auth,
          }),
        );
        expect(error.code).toBe('E_GIT');
        expect(error.message).toMatch(/: fatal: unable to access .*Empty reply from server$/);
        expect(error.message).not.toContain('sk_live_traced');
      }
      expect(existsSync(traceFile)).toBe(false);
    } finally {
      server.close();
    }
  });

  it('a server that never answers is E_GIT "timed out" at the deadline, git killed', async () => {
    const sockets: Socket[] = [];
    const server: TcpServer = createTcpServer((socket) => sockets.push(socket));
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const { port } = server.address() as { port: number };
    const target = dest();
    try {
      const started = Date.now();
      const error = await failure(
        cloneShallow(`http://127.0.0.1:${port}/r.git`, { dest: target, timeoutMs: 1_000, env }),
      );
      expect(error.code).toBe('E_GIT');
      expect(error.message).toContain('timed out');
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(existsSync(target)).toBe(false);
    } finally {
      for (const s of sockets) s.destroy();
      server.close();
    }
  });

  it('a clone past its limits is E_ARCHIVE_TOO_LARGE before the checkout writes a file: too many files, too many bytes, too large a download', async () => {
    const url = pathToFileURL(repo).href;
    const cases: Array<[Partial<CloneLimits>, string]> = [
      [{ maxEntries: 0 }, 'its tree holds more than 0 files'],
      [{ maxBytes: 20 }, 'its files hold more than 20 bytes'],
      [{ maxFetchBytes: 100 }, 'it downloads more than 100 bytes'],
    ];
    for (const [over, why] of cases) {
      const target = dest();
      const limits = { ...CLONE_LIMITS, ...over };
      const error = await failure(
        cloneShallow(url, { dest: target, timeoutMs: 30_000, env, limits }),
      );
      expect(error.code, why).toBe('E_ARCHIVE_TOO_LARGE');
      expect(error.message).toBe(`cannot clone ${url}: ${why}`);
      expect(existsSync(target)).toBe(false);
    }
    // The origin's main holds plugin.json (33 bytes) and nothing else: within these, it clones.
    const fits = { maxEntries: 1, maxBytes: 33, maxFetchBytes: 1024 * 1024 };
    const clone = await cloneShallow(url, { dest: dest(), timeoutMs: 30_000, env, limits: fits });
    expect(clone.commit).toBe(second);
  });

  it('the tree counter reads a listing in pieces of any size, and keeps only the head of a record without its end', () => {
    const listing = Buffer.from(
      '100644 blob aaaa      12\ta.txt\0' +
        '100755 blob bbbb  1000000\tdir/b.sh\0' +
        '160000 commit cccc       -\tsub\0',
      'latin1',
    );
    for (const size of [1, 3, 17, listing.length]) {
      const tree = treeCounter({ maxEntries: 10, maxBytes: 2_000_000 });
      for (let at = 0; at < listing.length; at += size) tree.feed(listing.subarray(at, at + size));
      expect(tree.count, `${size}`).toEqual({ entries: 3, bytes: 1_000_012 });
      expect(tree.over()).toBe(null);
    }
    const long = treeCounter({ maxEntries: 10, maxBytes: 100 });
    long.feed(Buffer.from(`100644 blob dddd 500\t${'p/'.repeat(1_000_000)}`));
    long.feed(Buffer.from('x\0'));
    expect(long.count).toEqual({ entries: 1, bytes: 500 });
    expect(long.over()).toBe('its files hold more than 100 bytes');
  });

  it('findRepositoryRoot finds the work tree around a directory, and null outside any', async () => {
    await mkdir(join(repo, 'deep', 'er'), { recursive: true });
    expect(await findRepositoryRoot(join(repo, 'deep', 'er'))).toBe(repo);
    const plain = join(tmp, 'plain');
    await mkdir(plain, { recursive: true });
    expect(await findRepositoryRoot(plain)).toBe(null);
  });
});
