import { existsSync } from 'node:fs';
import type { SnapshotHandler } from '../hooks/types.js';
import type { HandlerRun } from './types.js';
import { confineCommand } from './confine-command.js';
import { argvVariables, handlerEnvironment, substituteArgv } from './environment.js';
import { IS_WINDOWS } from './process-groups.js';
import { quotePathVariables } from './quote-path-variables.js';

/*
 * What the runner (run-handler.ts) spawns for a handler: the program and its arguments (X3), its
 * environment (X5), bwrap around it when it runs confined (Z4), and why it cannot be launched.
 */

/** A handler's failure to start (X8). */
type LaunchFailure = NonNullable<HandlerRun['failure']>;

/** Where and with what a handler is launched. */
export interface LaunchPlace {
  /** The invocation's working directory (X4). */
  cwd: string;
  /** The project root, given to every handler as CLAUDE_PROJECT_DIR (X5). */
  projectDir: string;
  /** The parent environment; secrets are removed before the handler sees it (X5). */
  env: Readonly<Record<string, string | undefined>>;
  /** Names kept in `env` although X5 would remove them (the user's `env.pass` setting). */
  passEnv?: readonly string[];
}

/** The process to spawn, or why there is none (confinement unavailable). */
export type Launch =
  | {
      ok: true;
      file: string;
      args: string[];
      env: Record<string, string>;
      cleanup: (() => void) | null;
      /** Z5: for a confined run without network, the seccomp program bwrap reads from fd 4. */
      seccomp?: Buffer | null;
    }
  | { ok: false; message: string };

/** The process to spawn: the handler itself, or (Z4) bwrap running it confined. */
export function launchOf(
  handler: SnapshotHandler,
  opts: LaunchPlace,
  command: { file: string; args: string[] },
): Launch {
  const env = handlerEnvironment(opts.env, handler, opts.projectDir, opts.passEnv);
  if (handler.confine === undefined) return { ok: true, ...command, env, cleanup: null };
  return confineCommand({
    confine: handler.confine,
    ...command,
    cwd: opts.cwd,
    projectDir: opts.projectDir,
    pluginRoot: handler.pluginEnv['CLAUDE_PLUGIN_ROOT'] ?? null,
    pluginData: handler.pluginEnv['CLAUDE_PLUGIN_DATA'] ?? null,
    env,
  });
}

/** X8: the reason a handler cannot be launched at all, or null. */
export function invalidCommand(handler: SnapshotHandler): string | null {
  if (handler.argv !== null) {
    if (handler.argv.length === 0) return 'argv is empty';
    if ((handler.argv[0] ?? '').trim() === '') return 'the program (argv[0]) is blank';
    return null;
  }
  return handler.command.trim() === '' ? 'the command is blank' : null;
}

/**
 * X3: argv (Claude Code's `args` form included) runs directly with `${VAR}` substituted; a command
 * (its bare path variables quoted where their values would split, X3a) runs under `/bin/sh -c`,
 * or under `bash -c` for `shell: "bash"`: bash is looked up on the handler's PATH, and where there
 * is none the handler is `launch_failed` (the handler table of engine.md), never quietly run by
 * another shell.
 */
export function commandLine(
  handler: SnapshotHandler,
  projectDir: string,
): { file: string; args: string[] } {
  if (handler.argv !== null) {
    const [file = '', ...args] = substituteArgv(handler.argv, argvVariables(handler, projectDir));
    return { file, args };
  }
  // On Windows, `shell: true` hands the command to the platform shell (cmd.exe) instead.
  if (IS_WINDOWS) return { file: handler.command, args: [] };
  // X3a: a path variable whose value has a space stays one word where the command left it bare.
  const command = quotePathVariables(handler.command, argvVariables(handler, projectDir));
  if (handler.shell === 'bash') return { file: 'bash', args: ['-c', command] };
  return { file: '/bin/sh', args: ['-c', command] };
}

/**
 * X8: what a spawn fails with when hookpm's process or the machine has run out of something, in
 * words: the host's failure, not the handler's.
 */
const SHORTAGES: Readonly<Record<string, string>> = {
  EMFILE: 'hookpm has too many files open (EMFILE)',
  ENFILE: 'the system has too many files open (ENFILE)',
  EAGAIN: 'no process can be started now (EAGAIN: the limit of processes?)',
  ENOMEM: 'the system is out of memory (ENOMEM)',
};

/** X8: the words of the shortage a spawn's `error` tells, or undefined when it tells none. */
function shortageOf(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code !== undefined && Object.hasOwn(SHORTAGES, code) ? SHORTAGES[code] : undefined;
}

/** Why a spawn failed, in words: a missing working directory or program, one not executable. */
function launchMessage(file: string, cwd: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (code === 'ENOENT' && !existsSync(cwd)) return `the working directory ${cwd} does not exist`;
  if (code === 'ENOENT') return `${file}: program not found`;
  if (code === 'EACCES') return `${file}: permission denied (not executable?)`;
  const shortage = shortageOf(error);
  if (shortage !== undefined) return `${file} cannot be started: ${shortage}`;
  return `${file}: ${error instanceof Error ? error.message : String(error)}`;
}

/**
 * X8: the failure of a spawn of `file` that failed with `error`, marked when the machine ran short.
 * Z6: when `file` is the bwrap of a confined run (`confining`), any other failure is its sandbox
 * not set up (bwrap gone or not executable since it was found): a block, never the handler's own
 * failure, which would let the call through.
 */
export function launchFailure(
  file: string,
  cwd: string,
  error: unknown,
  confining: boolean,
): LaunchFailure {
  const message = launchMessage(file, cwd, error);
  if (shortageOf(error) !== undefined) return { kind: 'launch_failed', message, shortage: true };
  return confining
    ? { kind: 'confinement_unavailable', message: `the sandbox cannot be set up: ${message}` }
    : { kind: 'launch_failed', message };
}
