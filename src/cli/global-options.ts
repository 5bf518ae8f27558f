import type { Command } from 'commander';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { HookpmError } from '../errors.js';
import { GLOBAL_OPTIONS } from './grammar.js';
import { hookpmHomeOf } from '../store/home-paths.js';
import { resolveStorePaths } from '../store/paths.js';
import type { StorePaths } from '../store/store-paths.js';

/** The global options of docs/reference/rules/cli.md#conventions, resolved once for a command. */
export interface GlobalOptions {
  json: boolean;
  /** hookpm's own home (`--home`, else HOOKPM_HOME); undefined means the platform directories. */
  hookpmHome: string | undefined;
  /** The user's home directory, where `~/.deepagents/` lives. */
  userHome: string;
  yes: boolean;
  offline: boolean;
  cwd: string;
}

export function addGlobalOptions(program: Command): void {
  for (const { flags, description } of GLOBAL_OPTIONS) program.option(flags, description);
}

/** Reads the global options as seen from a (sub)command, wherever they appeared on the line. */
export function globalOptions(command: Command): GlobalOptions {
  return resolveGlobals(command.optsWithGlobals<Record<string, unknown>>());
}

/**
 * The global options from their values as given (commander's, or cli/start/fast-line.ts's).
 * `cwdGone`: what a working directory removed since the shell entered it (process.cwd() fails)
 * becomes: `refuse`, E_USAGE, as git stops; `home`, the user's home, for `hookpm wire`, which
 * must answer every event (cli.md W2: handlers run in the payload's cwd first).
 */
export function resolveGlobals(
  opts: Record<string, unknown>,
  cwdGone: 'refuse' | 'home' = 'refuse',
): GlobalOptions {
  const userHome = process.env.HOME || homedir();
  const working = workingDirectory() ?? (cwdGone === 'home' ? userHome : null);
  if (working === null) throw cwdRemoved();
  // registry.md D1: `--home` is resolved against the working directory, as a path on a command
  // line is; HOOKPM_HOME, set once for every directory, must be absolute (hookpmHomeOf).
  const home = typeof opts.home === 'string' ? opts.home : hookpmHomeOf(process.env);
  const cwd = typeof opts.cwd === 'string' ? resolve(working, opts.cwd) : working;
  return {
    json: opts.json === true,
    hookpmHome: home === undefined ? undefined : resolve(working, home),
    userHome,
    yes: opts.yes === true,
    offline: opts.offline === true,
    cwd,
  };
}

/** The process's working directory, or null when it was removed since (process.cwd() fails). */
function workingDirectory(): string | null {
  try {
    return process.cwd();
  } catch {
    return null;
  }
}

function cwdRemoved(): HookpmError {
  return new HookpmError(
    'E_USAGE',
    'the working directory no longer exists (it was removed after the shell entered it)',
    { hint: 'Change to a directory that exists, or name one with --cwd <dir>.' },
  );
}

/** registry.md D1: the store of `--home`, else HOOKPM_HOME, else the platform directories. */
export function storePathsOf(globals: GlobalOptions): StorePaths {
  return resolveStorePaths({ HOOKPM_HOME: globals.hookpmHome });
}
