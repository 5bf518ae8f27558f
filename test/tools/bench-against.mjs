#!/usr/bin/env node
// Runs every bench/*.bench.mjs of this checkout and of another checkout (the build before a change,
// built with `npm run build`) one after the other, file by file, and prints each result of both
// side by side with the ratio this/other, so a change is judged against its base in one run on
// the same machine. Usage: node test/tools/bench-against.mjs <other checkout> [name filter]
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';

const here = resolve(fileURLToPath(import.meta.url), '../../..');
const other = process.argv[2] ? resolve(process.argv[2]) : null;
const filter = process.argv[3] ?? '';
if (other === null || !existsSync(join(other, 'bench'))) {
  console.error('usage: node test/tools/bench-against.mjs <other checkout> [name filter]');
  process.exit(2);
}
const fmt = (ms) => (ms < 1 ? `${(ms * 1000).toFixed(1)} µs` : `${ms.toFixed(2)} ms`);
const files = readdirSync(join(here, 'bench'))
  .filter((n) => n.endsWith('.bench.mjs') && n.includes(filter))
  .sort();

async function results(root, file) {
  const path = join(root, 'bench', file);
  if (!existsSync(path)) return [];
  const module = await import(pathToFileURL(path).href);
  return module.default();
}

for (const file of files) {
  // Alternate which checkout goes first, so neither always gets the warmer machine.
  const first = files.indexOf(file) % 2 === 0;
  const a = first ? await results(here, file) : null;
  const b = await results(other, file);
  const mine = a ?? (await results(here, file));
  for (const r of mine) {
    const base = b.find((x) => x.name === r.name);
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
