/**
 * The system tools the tests drive (chromium, tmux, zsh, fish, git, script, ...), each from a
 * Debian package. `requireTool` returns the tool's absolute path, installing its package first
 * when the tool is missing and this process may (root, with apt-get on PATH); otherwise it throws
 * naming the exact command to run. It never answers "skip": a machine without the tool fails the
 * test that needs it, with the fix.
 * Parallel callers (vitest workers, two suites, two tools) run at most one apt-get at a time: every
 * install runs under one lock directory beside the temporary files (dpkg allows one writer), and a
 * caller that waited looks for its tool again before installing. The first install runs
 * `apt-get update` (a fresh image has no package lists); installs within LISTS_FRESH_MS after it
 * skip that.
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:fs';
import { access, mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

export interface SystemTool {
  /** The executable's name, looked for on PATH and then in KNOWN_DIRS. */
  command: string;
  /** The Debian package that provides it. */
  package: string;
  /** An exact path the tool must be at (PATH is then not searched), e.g. an override's. */
  path?: string;
  /** Who needs it, for the messages (default: "the tests"). */
  neededBy?: string;
  /** A variable that points at another build of the tool, named in the failure message. */
  overrideEnv?: string;
}

export interface RequireToolOptions {
  /** Default: process.env. Its PATH is searched, for the tool and apt-get; the install runs with it. */
  env?: NodeJS.ProcessEnv;
  /** Default: whether this process runs as root. */
  root?: boolean;
  /** Default: LOCK_DIR. */
  lockDir?: string;
  /** How long a caller waits for another caller's install; default 15 minutes. */
  waitMs?: number;
  /** Called with one line before an install starts (default: stderr). */
  log?: (line: string) => void;
}

/** Where a tool is looked for after PATH (a test's PATH may leave out the system's). */
export const KNOWN_DIRS = ['/usr/local/bin', '/usr/bin', '/bin', '/usr/sbin', '/sbin'];
/** The one lock every install of every tool runs under. */
export const LOCK_DIR = join(tmpdir(), 'hookpm-apt-install.lock');
/** How long after one `apt-get update` (marked beside the lock) the next install skips it. */
export const LISTS_FRESH_MS = 60 * 60_000;
/** A hook timeout long enough for a first-use install (the lock wait plus the install). */
export const INSTALL_TIMEOUT_MS = 20 * 60_000;

export const ZSH: SystemTool = { command: 'zsh', package: 'zsh' };
export const FISH: SystemTool = { command: 'fish', package: 'fish' };
export const BASH: SystemTool = { command: 'bash', package: 'bash' };
export const TMUX: SystemTool = { command: 'tmux', package: 'tmux' };
export const GIT: SystemTool = { command: 'git', package: 'git' };
/** bubblewrap: the sandbox confined handlers run in (security.md Z4). */
export const BWRAP: SystemTool = { command: 'bwrap', package: 'bubblewrap' };
/** util-linux's `script`: a command on a pseudo-terminal. */
export const SCRIPT: SystemTool = { command: 'script', package: 'bsdutils' };
export const MOUNT: SystemTool = { command: 'mount', package: 'mount' };
export const UNSHARE: SystemTool = { command: 'unshare', package: 'util-linux' };
/** openssl: a self-signed certificate for a TLS server on 127.0.0.1. */
export const OPENSSL: SystemTool = { command: 'openssl', package: 'openssl' };

/** The install, as argv lists run in order; `apt-get update` first, since a fresh image has no lists. */
export function installCommands(packages: readonly string[], root: boolean): string[][] {
  const sudo = root ? [] : ['sudo'];
  return [
    [...sudo, 'apt-get', 'update'],
    [...sudo, 'apt-get', 'install', '-y', ...packages],
  ];
}

/** The commands as one shell line a person can paste. */
export function installLine(packages: readonly string[], root: boolean): string {
  return installCommands(packages, root)
    .map((argv) => argv.join(' '))
    .join(' && ');
}

export async function requireTool(
  tool: SystemTool,
  opts: RequireToolOptions = {},
): Promise<string> {
  const env = opts.env ?? process.env;
  const found = await locate(tool, env);
  if (found !== null) return found;
  const what = describeMissing(tool, env);
  const neededBy = tool.neededBy ?? 'the tests';
  const root = opts.root ?? process.getuid?.() === 0;
  const aptGet = await onPath('apt-get', env);
  if (!root || aptGet === null) {
    const why = aptGet === null ? 'apt-get is not on PATH' : 'this process is not root';
    throw new Error(
      `${neededBy} need ${what}, and ${why}, so it cannot be installed here.\n` +
        `Install it with:\n  ${installLine([tool.package], root)}\n` +
        (tool.overrideEnv === undefined
          ? ''
          : `or point ${tool.overrideEnv} at a ${tool.command} binary.\n`),
    );
  }
  const lockDir = opts.lockDir ?? LOCK_DIR;
  await withLock(lockDir, opts.waitMs ?? 15 * 60_000, async () => {
    if ((await locate(tool, env)) !== null) return;
    // The package lists one caller fetched serve the next installs for a while.
    const updated = `${lockDir}.updated`;
    const fresh = await stat(updated).then(
      (s) => Date.now() - s.mtimeMs < LISTS_FRESH_MS,
      () => false,
    );
    const commands = installCommands([tool.package], true).slice(fresh ? 1 : 0);
    (opts.log ?? ((line) => process.stderr.write(`${line}\n`)))(
      `${neededBy}: ${what}; running ${commands.map((argv) => argv.join(' ')).join(' && ')}`,
    );
    for (const argv of commands) {
      await run(argv, env);
      if (argv[1] === 'update') await writeFile(updated, '');
    }
  });
  const installed = await locate(tool, env);
  if (installed !== null) return installed;
  throw new Error(
    `${installLine([tool.package], true)} finished, but ${neededBy} still need ${what}.\n` +
      `Install ${tool.package} by hand` +
      (tool.overrideEnv === undefined
        ? '.'
        : `, or point ${tool.overrideEnv} at a ${tool.command} binary.`),
  );
}

function describeMissing(tool: SystemTool, env: NodeJS.ProcessEnv): string {
  if (tool.path !== undefined) return `${tool.command} at ${tool.path}, which is missing`;
  return `${tool.command} (Debian package ${tool.package}), which is neither on PATH (${env['PATH'] ?? ''}) nor in ${KNOWN_DIRS.join(', ')}`;
}

async function locate(tool: SystemTool, env: NodeJS.ProcessEnv): Promise<string | null> {
  if (tool.path !== undefined) return (await isExecutable(tool.path)) ? tool.path : null;
  return (await onPath(tool.command, env)) ?? (await inDirs(tool.command, KNOWN_DIRS));
}

async function isExecutable(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

function onPath(command: string, env: NodeJS.ProcessEnv): Promise<string | null> {
  return inDirs(command, (env['PATH'] ?? '').split(delimiter));
}

async function inDirs(command: string, dirs: readonly string[]): Promise<string | null> {
  for (const dir of dirs) {
    if (dir !== '' && (await isExecutable(join(dir, command)))) return join(dir, command);
  }
  return null;
}

/** Runs `argv` with its output on stderr; throws on a non-zero exit, naming the command. */
function run(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<void> {
  const [command, ...args] = argv;
  if (command === undefined) throw new Error('Assertion failed: empty command');
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      env: { ...env, DEBIAN_FRONTEND: 'noninteractive' },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.on('error', reject);
    child.on('close', (code, signal) =>
      code === 0
        ? resolve()
        : reject(new Error(`${argv.join(' ')} failed (${signal ?? `exit ${code}`})`)),
    );
  });
}

/**
 * Runs `body` holding the lock directory `dir` (mkdir is atomic across processes). A lock older
 * than `waitMs` is taken to be left by a killed process and removed.
 */
async function withLock(dir: string, waitMs: number, body: () => Promise<void>): Promise<void> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      await mkdir(dir);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const age = await stat(dir).then(
        (s) => Date.now() - s.mtimeMs,
        () => 0,
      );
      if (age > waitMs) await rm(dir, { recursive: true, force: true });
      else if (Date.now() > deadline)
        throw new Error(`waited ${waitMs} ms for another apt-get install (lock ${dir})`);
      else await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  try {
    await body();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
