#!/usr/bin/env node
// Node 24 LTS for CI and the benchmarks (the machine has Node 20): the npm registry's
// node-<platform>-<arch> package at a pinned version, installed on first use into a cache outside
// the checkout ($XDG_CACHE_HOME or ~/.cache, then hookpm-dev/), never a dependency of hookpm.
//   node test/tools/node-24.mjs              prints the binary's path (installing it if needed)
//   node test/tools/node-24.mjs <args...>    runs it with those arguments, with its exit status
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const NODE_24_VERSION = '24.22.3';

/** The path of the Node 24 binary, installed into the cache first when it is not there. */
export function node24() {
  const cache = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  const dir = join(cache, 'hookpm-dev', `node-${NODE_24_VERSION}`);
  const name = `node-${process.platform}-${process.arch}`;
  const binary = join(dir, 'node_modules', name, 'bin', 'node');
  if (existsSync(binary)) return binary;
  // Into a scratch directory first, renamed into place whole: no half-installed binary is found.
  const scratch = `${dir}.tmp-${process.pid}`;
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const args = ['install', '--prefix', scratch, '--no-save', '--no-audit', '--no-fund'];
  execFileSync(npm, [...args, '--ignore-scripts', `${name}@${NODE_24_VERSION}`], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  rmSync(dir, { recursive: true, force: true });
  renameSync(scratch, dir);
  return binary;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const binary = node24();
  const args = process.argv.slice(2);
  if (args.length === 0) console.log(binary);
  else process.exitCode = spawnSync(binary, args, { stdio: 'inherit' }).status ?? 1;
}
