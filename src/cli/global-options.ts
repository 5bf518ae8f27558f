import type { Command } from 'commander';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { GLOBAL_OPTIONS } from './grammar.js';
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

/** The global options from their values as given (commander's, or cli/start/fast-line.ts's). */
export function resolveGlobals(opts: Record<string, unknown>): GlobalOptions {
  const home = typeof opts.home === 'string' ? opts.home : process.env.HOOKPM_HOME || undefined;
  const cwd = typeof opts.cwd === 'string' ? resolve(opts.cwd) : process.cwd();
  return {
    json: opts.json === true,
    hookpmHome: home === undefined ? undefined : resolve(home),
    userHome: process.env.HOME || homedir(),
    yes: opts.yes === true,
    offline: opts.offline === true,
    cwd,
  };
}

/** registry.md D1: the store of `--home`, else HOOKPM_HOME, else the platform directories. */
export function storePathsOf(globals: GlobalOptions): StorePaths {
  return resolveStorePaths({ HOOKPM_HOME: globals.hookpmHome });
}
