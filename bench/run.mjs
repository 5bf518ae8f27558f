#!/usr/bin/env node
// `npm run bench`: imports every bench/*.bench.mjs in name order and prints one line per result.
// A bench module's default export is an async function returning results:
//   [{ name, valueMs, yardstick: { name, valueMs }, targetMs }]
// PASS means valueMs < targetMs. The exit code is 0 unless BENCH_STRICT=1 and a result fails.
import { readdirSync } from 'node:fs';

const dir = new URL('./', import.meta.url);
const files = readdirSync(dir)
  .filter((name) => name.endsWith('.bench.mjs'))
  .sort();

const fmt = (ms) => (ms < 1 ? `${(ms * 1000).toFixed(1)} µs` : `${ms.toFixed(2)} ms`);

let failed = 0;
for (const file of files) {
  const module = await import(new URL(file, dir));
  const results = await module.default();
  for (const r of results) {
    const pass = r.valueMs < r.targetMs;
    if (!pass) failed += 1;
    const ratio =
      r.yardstick.valueMs > 0 ? `${(r.valueMs / r.yardstick.valueMs).toFixed(2)}x` : 'n/a';
    console.log(
      [
        r.name.padEnd(66),
        `measured ${fmt(r.valueMs)}`.padEnd(20),
        `yardstick ${r.yardstick.name} ${fmt(r.yardstick.valueMs)}`.padEnd(40),
        `ratio ${ratio}`.padEnd(13),
        `target < ${fmt(r.targetMs)}`.padEnd(18),
        pass ? 'PASS' : 'FAIL',
      ].join('  '),
    );
  }
}
if (failed > 0) {
  console.log(`${failed} result(s) missed their target`);
  if (process.env.BENCH_STRICT === '1') process.exitCode = 1;
}
