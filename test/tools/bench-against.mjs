#!/usr/bin/env node
// Runs every bench/*.bench.mjs of this checkout and of another built checkout (the tree before a
// change) side by side in one run on one machine, and prints each result of both with the ratio
// this/base. Each benchmark file runs in a fresh Node process per checkout (so neither inherits
// the other's heap or JIT state), the two in alternating order, `--repeat N` times (default 1);
// a result is the median of its repeats. Results are paired by name, or by position in their file
// when a name carries a measured figure. Usage:
//
//   node test/tools/bench-against.mjs <other checkout> [--repeat N] [name filter]
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = resolve(fileURLToPath(import.meta.url), '../../..');
const args = process.argv.slice(2);
const repeatAt = args.indexOf('--repeat');
const repeat = repeatAt === -1 ? 1 : Number(args.splice(repeatAt, 2)[1]);
const [otherArg, filter = ''] = args;
const other = otherArg === undefined ? null : resolve(otherArg);
if (other === null || !existsSync(join(other, 'bench')) || !(repeat >= 1)) {
  console.error('usage: node test/tools/bench-against.mjs <other checkout> [--repeat N] [filter]');
  process.exit(2);
}

/** The child's program: imports one bench module and prints its results as JSON. */
const CHILD = `const m = await import(process.argv[1]);
process.stdout.write(JSON.stringify(await m.default()));`;

/** One run of `file` of the checkout at `root`, in a fresh process: its results, or [] if absent. */
function runOnce(root, file) {
  const path = join(root, 'bench', file);
  if (!existsSync(path)) return [];
  const out = execFileSync(
    process.execPath,
    ['--input-type=module', '-e', CHILD, pathToFileURL(path).href],
    {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  return JSON.parse(out);
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** The results of `repeat` runs folded into one list: each value the median of its runs. */
function fold(runs) {
  if (runs.length === 0 || runs[0].length === 0) return [];
  return runs[0].map((first, i) => ({
    ...first,
    valueMs: median(runs.map((run) => run[i]?.valueMs ?? first.valueMs)),
  }));
}

const fmt = (ms) => (ms < 1 ? `${(ms * 1000).toFixed(1)} µs` : `${ms.toFixed(2)} ms`);
const files = readdirSync(join(here, 'bench'))
  .filter((n) => n.endsWith('.bench.mjs') && n.includes(filter))
  .sort();

console.log(`node ${process.version}: this ${here}, base ${other}, ${repeat} run(s) each`);
for (const [index, file] of files.entries()) {
  const mine = [];
  const theirs = [];
  for (let i = 0; i < repeat; i += 1) {
    // Alternate which checkout goes first, so neither always gets the warmer machine.
    if ((index + i) % 2 === 0) {
      mine.push(runOnce(here, file));
      theirs.push(runOnce(other, file));
    } else {
      theirs.push(runOnce(other, file));
      mine.push(runOnce(here, file));
    }
  }
  const a = fold(mine);
  const b = fold(theirs);
  for (const [i, r] of a.entries()) {
    const base = b.find((x) => x.name === r.name) ?? (b.length === a.length ? b[i] : undefined);
    const ratio = base && base.valueMs > 0 ? `${(r.valueMs / base.valueMs).toFixed(2)}x` : 'n/a';
    console.log(
      [
        r.name.padEnd(66),
        `this ${fmt(r.valueMs)}`.padEnd(18),
        `base ${base ? fmt(base.valueMs) : 'n/a'}`.padEnd(18),
        `this/base ${ratio}`.padEnd(16),
        `target < ${fmt(r.targetMs)}`,
      ].join('  '),
    );
  }
}
