// A cache of pinned npm packages (agent CLIs: Claude Code, later Codex and Gemini CLI) for tests
// that drive real agents. Never a dependency of hookpm: each package is installed on first use
// into a directory outside the checkout, under the same root as test/tools/node-24.mjs:
//
//   ${XDG_CACHE_HOME:-~/.cache}/hookpm-dev/agents/<name>@<version>/
//
// (a scoped name's `/` is written `+`: `@anthropic-ai+claude-code@2.1.332`). That directory is the
// `--prefix` of `npm install`, so the package is at `<dir>/node_modules/<name>/`.
//
// Contracts:
// - A directory in place is complete: npm installs into a scratch directory beside it, a marker
//   file is written last, and the scratch directory is renamed into place whole. A killed
//   install leaves only a scratch directory (`.tmp-*`), never read, swept by a later install.
// - Concurrent installers (vitest workers, parallel runs) of the same package: one holds a lock
//   directory (`<dir>.lock`, holding its pid) and installs; the others wait for the directory to
//   appear. A lock whose owner is dead, or older than the install timeout, is taken over. Should
//   two installs still race, the loser's rename fails with EEXIST/ENOTEMPTY, which means
//   "someone else finished": its scratch copy is dropped and the winner's directory used.
// - Lifecycle scripts run (Claude Code's postinstall puts its native binary in place).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

/** The file, inside a complete cache directory, that says so. Written just before the rename. */
const MARKER = '.hookpm-agent-cache.json';
const POLL_MS = 500;

export interface CachedInstallOptions {
  /** Kill npm (and fail) after this long; a waiting installer gives up after it too. */
  timeoutMs?: number;
}

/** `${XDG_CACHE_HOME:-~/.cache}/hookpm-dev/agents`: the root of every cached agent package. */
export function agentCacheRoot(): string {
  const cache = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(cache, 'hookpm-dev', 'agents');
}

/** The cache directory of one package version (whether or not it is installed yet). */
export function agentCacheDir(name: string, version: string): string {
  return join(agentCacheRoot(), `${name.replace('/', '+')}@${version}`);
}

/** The installed package's own directory inside a cache directory: `<dir>/node_modules/<name>`. */
export function packageDirIn(cacheDir: string, name: string): string {
  return join(cacheDir, 'node_modules', ...name.split('/'));
}

/**
 * Installs `<name>@<version>` into its cache directory unless it is there (complete) already, and
 * returns that directory (the npm `--prefix`). Rejects with npm's stderr when npm fails.
 */
export async function installCachedPackage(
  name: string,
  version: string,
  opts: CachedInstallOptions = {},
): Promise<string> {
  const timeoutMs = opts.timeoutMs ?? 10 * 60_000;
  const dir = agentCacheDir(name, version);
  if (await isComplete(dir)) return dir;
  await mkdir(dirname(dir), { recursive: true });
  const lock = `${dir}.lock`;
  const deadline = Date.now() + timeoutMs;
  while (!(await takeLock(lock, timeoutMs))) {
    if (await isComplete(dir)) return dir;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${lock}`);
    await sleep(POLL_MS);
  }
  try {
    if (await isComplete(dir)) return dir;
    await sweepScratch(dir);
    await installFresh(dir, name, version, timeoutMs);
    return dir;
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}

async function isComplete(dir: string): Promise<boolean> {
  return existsSync(join(dir, MARKER));
}

/** npm into a scratch directory, the marker, then one rename into place. */
async function installFresh(
  dir: string,
  name: string,
  version: string,
  timeoutMs: number,
): Promise<void> {
  const scratch = `${dir}.tmp-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  await mkdir(scratch, { recursive: true });
  try {
    const started = Date.now();
    await npmInstall(scratch, `${name}@${version}`, timeoutMs);
    const marker = { name, version, installedAt: new Date().toISOString() };
    await writeFile(
      join(scratch, MARKER),
      JSON.stringify({ ...marker, installMs: Date.now() - started }),
    );
    // A directory without the marker is no install of ours (say, a copy left by hand): replace it.
    if (existsSync(dir) && !(await isComplete(dir)))
      await rm(dir, { recursive: true, force: true });
    try {
      await rename(scratch, dir);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if ((code !== 'EEXIST' && code !== 'ENOTEMPTY') || !(await isComplete(dir))) throw err;
      // Someone else finished first; theirs is as good as ours.
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

function npmInstall(prefix: string, spec: string, timeoutMs: number): Promise<void> {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const args = ['install', '--prefix', prefix, '--no-audit', '--no-fund', '--no-save', spec];
  return new Promise((resolve, reject) => {
    const child = spawn(npm, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else
        reject(new Error(`npm install ${spec} failed (${signal ?? `exit ${code}`}):\n${stderr}`));
    });
  });
}

/** mkdir as a lock; a lock whose owner is gone (or is older than `staleMs`) is removed first. */
async function takeLock(lock: string, staleMs: number): Promise<boolean> {
  try {
    await mkdir(lock);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    if (await isStale(lock, staleMs)) await rm(lock, { recursive: true, force: true });
    return false;
  }
  await writeFile(join(lock, 'pid'), String(process.pid));
  return true;
}

async function isStale(lock: string, staleMs: number): Promise<boolean> {
  let age: number;
  try {
    age = Date.now() - (await stat(lock)).mtimeMs;
  } catch {
    return false; // gone already: the next mkdir decides
  }
  if (age > staleMs) return true;
  let pid: number;
  try {
    pid = Number(await readFile(join(lock, 'pid'), 'utf8'));
  } catch {
    pid = 0;
  }
  // No pid yet: its owner is between mkdir and writeFile, or was killed there.
  if (!Number.isInteger(pid) || pid <= 0) return age > 5_000;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH'; // the owner is dead
  }
}

/** Scratch directories of killed installs of this package (only ever swept under the lock). */
async function sweepScratch(dir: string): Promise<void> {
  const base = `${dir.slice(dirname(dir).length + 1)}.tmp-`;
  for (const entry of await readdir(dirname(dir))) {
    if (entry.startsWith(base))
      await rm(join(dirname(dir), entry), { recursive: true, force: true });
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
