import { join } from 'node:path';
import { homeStorePaths } from '../../store/home-paths.js';
import { resolveStorePaths } from '../../store/paths.js';

/**
 * STYLE "Start-up cost": on Node 22.1 and later, Node keeps V8's code cache of every module the
 * CLI loads after this call (module.enableCompileCache), in `<hookpm cache dir>/compile-cache/`,
 * so a start neither parses the bundle's text nor compiles again the functions a run of the same
 * bundle compiled before. Node checks each cached module against its source and the running Node
 * and V8 flags and compiles afresh what does not match; the cache is written as the process
 * exits. Node 20 has no such cache and compiles at every start (bench/cli-startup.bench.mjs
 * measures both). The cache is an optimisation only: a directory that cannot be made or written
 * leaves the run as it would be without it.
 */
export function enableCompileCache(argv: readonly string[]): void {
  // Typed by hand: @types/node follows Node 20, engines.node's lowest.
  const module = process.getBuiltinModule('node:module') as {
    enableCompileCache?: (directory: string) => unknown;
  };
  module.enableCompileCache?.(join(cacheDirOf(argv), 'compile-cache'));
}

/** registry.md D1: the cache directory of `--home`, else of HOOKPM_HOME, else the platform one. */
function cacheDirOf(argv: readonly string[]): string {
  const at = argv.indexOf('--home');
  const given = argv.find((arg) => arg.startsWith('--home='))?.slice('--home='.length);
  const home = (at >= 2 ? argv[at + 1] : given) ?? process.env.HOOKPM_HOME;
  return (home !== undefined && home !== '' ? homeStorePaths(home) : resolveStorePaths({})).cache;
}
