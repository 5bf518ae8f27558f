/**
 * The browser the browser tests drive: Debian's chromium (playwright-core never downloads one).
 * `findChromium` returns its path, installing the `chromium` package first when it is missing and
 * this process may (root, with apt-get on PATH); otherwise it throws naming the exact command to
 * run. It never returns "skip": a machine without the browser fails the test with the fix.
 * Parallel callers (vitest workers, two suites) install at most once: the install runs under a
 * lock directory beside the temporary files, and a caller that waited re-checks the path.
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:fs';
import { access, mkdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

export const DEFAULT_CHROMIUM = '/usr/bin/chromium';
/** Overrides the browser's path (another build, or a missing path to test the failure). */
export const CHROMIUM_ENV = 'HOOKPM_TEST_CHROMIUM';

export interface FindChromiumOptions {
  /** Default: $HOOKPM_TEST_CHROMIUM, else /usr/bin/chromium. */
  path?: string;
  /** Default: process.env. Its PATH is where apt-get is looked for and what the install runs with. */
  env?: NodeJS.ProcessEnv;
  /** Default: whether this process runs as root. */
  root?: boolean;
  /** Default: `<tmpdir>/hookpm-chromium-install.lock`. */
  lockDir?: string;
  /** How long a waiter waits for another caller's install; default 15 minutes. */
  waitMs?: number;
  /** Called with one line before the install starts (default: stderr). */
  log?: (line: string) => void;
}

/** The install, as argv lists run in order; `apt-get update` first, since a fresh image has no lists. */
export function installCommands(root: boolean): string[][] {
  const sudo = root ? [] : ['sudo'];
  return [
    [...sudo, 'apt-get', 'update'],
    [...sudo, 'apt-get', 'install', '-y', 'chromium'],
  ];
}

/** The commands as one shell line a person can paste. */
export function installLine(root: boolean): string {
  return installCommands(root)
    .map((argv) => argv.join(' '))
    .join(' && ');
}

export async function findChromium(opts: FindChromiumOptions = {}): Promise<string> {
  const env = opts.env ?? process.env;
  const path = opts.path ?? (env[CHROMIUM_ENV] || DEFAULT_CHROMIUM);
  if (await isExecutable(path)) return path;
  const root = opts.root ?? process.getuid?.() === 0;
  const aptGet = await onPath('apt-get', env);
  if (!root || aptGet === null) {
    const why = aptGet === null ? 'apt-get is not on PATH' : 'this process is not root';
    throw new Error(
      `the browser tests need chromium at ${path}, which is missing, and ${why}, so it cannot be installed here.\n` +
        `Install it with:\n  ${installLine(root)}\n` +
        `or point ${CHROMIUM_ENV} at a chromium binary.`,
    );
  }
  const lockDir = opts.lockDir ?? join(tmpdir(), 'hookpm-chromium-install.lock');
  await withLock(lockDir, opts.waitMs ?? 15 * 60_000, async () => {
    if (await isExecutable(path)) return;
    (opts.log ?? ((line) => process.stderr.write(`${line}\n`)))(
      `browser tests: ${path} is missing; running ${installLine(true)}`,
    );
    for (const argv of installCommands(true)) await run(argv, env);
  });
  if (await isExecutable(path)) return path;
  throw new Error(
    `${installLine(true)} finished, but ${path} is still missing.\n` +
      `Install chromium by hand, or point ${CHROMIUM_ENV} at a chromium binary.`,
  );
}

async function isExecutable(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

async function onPath(command: string, env: NodeJS.ProcessEnv): Promise<string | null> {
  for (const dir of (env['PATH'] ?? '').split(delimiter)) {
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
 * Runs `body` holding the lock directory `dir` (mkdir is atomic). A lock older than `waitMs` is
 * taken to be left by a killed process and removed.
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
        throw new Error(`waited ${waitMs} ms for another chromium install (lock ${dir})`);
      else await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  try {
    await body();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
