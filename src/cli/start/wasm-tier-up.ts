import { GLOBAL_OPTIONS } from '../grammar.js';

/**
 * undici parses HTTP with llhttp, compiled to WebAssembly. V8 compiles hot WebAssembly functions
 * again, optimised, on a background thread, and a process that exits meanwhile waits for that
 * compilation to end: about 50 ms on Node 20 and 13 ms on Node 24 at the end of a command that
 * went to the network, more than its requests took (bench/install.bench.mjs). A command makes a
 * few requests, for which V8's baseline code is fast enough, so the commands that go to
 * registries turn that tier-up off as they start. They do it before the compile cache is on
 * (compile-cache.ts): Node keeps the code V8 compiled under other flags in a directory of its own,
 * so these commands and the others never reject each other's cache. Loading node:v8 costs about
 * 1.5 ms, so the other commands leave the flags alone; so does every command when the user gave
 * V8 WebAssembly flags of their own. Only the CLI calls this: the library never changes them.
 */
const FLAGS = ['--no-wasm-tier-up', '--no-wasm-dynamic-tiering'];
/** The commands that fetch registry indexes or tarballs (cli.md section 2). */
const NETWORK_COMMANDS: ReadonlySet<string> = new Set([
  'install',
  'update',
  'search',
  'info',
  'review',
  'registry',
]);
/** The global options that take a value, so that a value is not read as the command word. */
const VALUED = new Set(GLOBAL_OPTIONS.filter((o) => o.flags.includes('<')).map(longName));

export function stopWasmTierUpForNetwork(argv: readonly string[]): void {
  if (!NETWORK_COMMANDS.has(commandOf(argv.slice(2))) || userFlags()) return;
  const v8 = process.getBuiltinModule('node:v8');
  for (const flag of FLAGS) v8.setFlagsFromString(flag);
}

/** The command word: the first argument that is neither an option nor an option's value. */
function commandOf(args: readonly string[]): string {
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] as string;
    if (VALUED.has(arg)) i += 1;
    else if (!arg.startsWith('-')) return arg;
  }
  return '';
}

function longName(option: { flags: string }): string {
  return option.flags.split(/[ ,]+/).find((word) => word.startsWith('--')) ?? '';
}

function userFlags(): boolean {
  return /wasm|liftoff/.test([...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' '));
}
