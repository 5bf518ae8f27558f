/**
 * undici parses HTTP with llhttp, compiled to WebAssembly. V8 compiles hot WebAssembly functions
 * again, optimised, on a background thread, and a process that exits meanwhile waits for that
 * compilation to end: about 50 ms on Node 20 and 13 ms on Node 24 at the end of a command that
 * went to the network, more than its requests took (bench/install.bench.mjs). A command makes a
 * few requests, for which V8's baseline code is fast enough, so the CLI turns that tier-up off
 * before undici's first connection (which compiles llhttp). V8 tags a code cache with the flags it
 * was made under and rejects it under others, so chunk-cache.ts compiles and makes its caches
 * under the default flags (underDefaultFlags); no WebAssembly runs meanwhile, so none tiers up. Flags are left alone when the user gave V8 WebAssembly flags of their own. Only the CLI
 * calls this: the library never changes them.
 */
const FLAGS = ['wasm-tier-up', 'wasm-dynamic-tiering'];
/** Published by undici before it opens a connection (undici/lib/core/diagnostics.js). */
const BEFORE_CONNECT = 'undici:client:beforeConnect';

let stopped = false;

export function stopWasmTierUpOnConnect(): void {
  const channels = process.getBuiltinModule('node:diagnostics_channel');
  channels.subscribe(BEFORE_CONNECT, () => setFlags('--no-'));
}

/** Runs `compile` under V8's default flags (both are on by default): its caches have the usual tag. */
export function underDefaultFlags<T>(compile: () => T): T {
  if (!stopped) return compile();
  setFlags('--');
  try {
    return compile();
  } finally {
    setFlags('--no-');
  }
}

function setFlags(prefix: '--' | '--no-'): void {
  if (stopped === (prefix === '--no-') || userFlags()) return;
  // Loaded only here: node:v8 loads the streams, about 2 ms.
  const v8 = process.getBuiltinModule('node:v8');
  for (const flag of FLAGS) v8.setFlagsFromString(`${prefix}${flag}`);
  stopped = prefix === '--no-';
}

function userFlags(): boolean {
  return /wasm|liftoff/.test([...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' '));
}
