import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { installCachedPackage, packageDirIn } from '../agents/agent-cache.js';

/** How one agent run ended. */
export interface AgentTurn {
  /** The exit status; -1 when it ended by a signal (e.g. killed on timeout). */
  exitCode: number;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/**
 * Runs `command ...args` in `cwd` with exactly `env`, stdin /dev/null, in its own process group,
 * which is killed (SIGKILL, hooks included) after `timeoutMs` (default 60 s) and once the run is
 * over. Rejects only when the command cannot be started.
 */
export async function runAgentProcess(
  command: string,
  args: string[],
  opts: { cwd: string; env: Record<string, string>; timeoutMs?: number | undefined },
): Promise<AgentTurn> {
  const child = spawn(command, args, {
    cwd: opts.cwd,
    env: opts.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup(child.pid);
  }, opts.timeoutMs ?? 60_000);
  const exitCode = await new Promise<number>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve(code ?? -1));
  }).finally(() => clearTimeout(timer));
  // Hooks still running after the turn (none should be) go with the group.
  killGroup(child.pid);
  return { exitCode, stdout, stderr, timedOut };
}

/** Kills the process group `pid` leads, if any is left. */
export function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // ESRCH: the group is gone already.
  }
}

/**
 * `install` run once for all callers: they share its promise. A failed install is not
 * remembered: the next call tries again.
 */
export function installOnce(install: () => Promise<string>): () => Promise<string> {
  let installing: Promise<string> | undefined;
  return () => {
    installing ??= install();
    installing.catch(() => (installing = undefined));
    return installing;
  };
}

/** Runs `command ...args` and throws unless what it prints contains `version`. */
export async function expectVersion(
  command: string,
  args: string[],
  version: string,
  opts: { env: Record<string, string>; timeout: number },
): Promise<void> {
  const { stdout } = await promisify(execFile)(command, args, opts);
  if (!stdout.includes(version)) {
    throw new Error(`${[command, ...args].join(' ')} printed ${JSON.stringify(stdout)}`);
  }
}

/** An agent published on npm, installed into the agent cache (agents/agent-cache.ts). */
export interface CachedAgent {
  package: string;
  version: string;
  /** The runnable file, relative to the installed package; a `.js` file runs with node. */
  file: string;
  /** More environment for `<file> --version` than PATH, given the cache directory. */
  env?: (dir: string) => Record<string, string>;
  /** How long `--version` may take; default 30 s. */
  timeout?: number;
}

/**
 * The installer of `agent`: installs the package once (installOnce), checks that
 * `<file> --version` prints the version, and answers the file.
 */
export function cachedAgentInstaller(agent: CachedAgent): () => Promise<string> {
  return installOnce(async () => {
    const dir = await installCachedPackage(agent.package, agent.version);
    const file = join(packageDirIn(dir, agent.package), agent.file);
    if (!existsSync(file)) throw new Error(`no ${agent.package} ${agent.file} at ${file}`);
    const [command, args] = file.endsWith('.js')
      ? [process.execPath, [file, '--version']]
      : [file, ['--version']];
    await expectVersion(command, args, agent.version, {
      env: { PATH: process.env.PATH ?? '', ...agent.env?.(dir) },
      timeout: agent.timeout ?? 30_000,
    });
    return file;
  });
}

/** The turn ended by itself (no timeout) with exit 0; stderr explains a failure. */
export function expectCleanTurn(run: AgentTurn): void {
  expect(run.timedOut, run.stderr).toBe(false);
  expect(run.exitCode, run.stderr).toBe(0);
}
