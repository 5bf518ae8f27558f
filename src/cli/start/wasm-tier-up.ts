/**
 * undici parses HTTP with llhttp, compiled to WebAssembly. V8 compiles hot WebAssembly functions
 * again, optimised, on a background thread, and a process that exits meanwhile waits for that
 * compilation to end: about 90 ms at the end of every command that went to the network, more
 * than its requests took (bench/install.bench.mjs). A command makes a few requests, for which
 * V8's baseline code is fast enough, so start.ts turns that tier-up off once undici is loaded
 * (before its first request compiles llhttp) and back on before it writes a code cache: V8 tags a
 * cache with the flags it was made under and rejects it under others, and most runs never load
 * undici. Flags are left alone when the user gave V8 WebAssembly flags of their own.
 */
const FLAGS = ['wasm-tier-up', 'wasm-dynamic-tiering'];

let stopped = false;

export function stopWasmTierUp(): void {
  if (stopped || userFlags()) return;
  setFlags('--no-');
  stopped = true;
}

/** V8's defaults again (both flags are on by default), so a cache made now has the usual tag. */
export function restoreWasmTierUp(): void {
  if (!stopped) return;
  setFlags('--');
  stopped = false;
}

function setFlags(prefix: string): void {
  // Loaded only here: node:v8 costs about 1.5 ms to load, and most runs never need it.
  const v8 = process.getBuiltinModule('node:v8');
  for (const flag of FLAGS) v8.setFlagsFromString(`${prefix}${flag}`);
}

function userFlags(): boolean {
  return /wasm|liftoff/.test([...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' '));
}
