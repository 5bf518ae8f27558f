#!/usr/bin/env node
// `--version` and `list` answer without loading the full CLI (STYLE "Start-up cost",
// bench/cli-startup.bench.mjs): the version is read here, list in dist/cli/fast-path.js. Every
// other command runs from the code-cached bundle (dist/cli/run-bundle.js), or from the compiled
// modules of dist/ when there is no current bundle.
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`${pkg.version}\n`);
} else {
  const { runFastPath } = await import('../dist/cli/fast-path.js');
  if (!(await runFastPath(process.argv))) {
    const { runBundle } = await import('../dist/cli/run-bundle.js');
    if (!(await runBundle(process.argv))) {
      const { main } = await import('../dist/cli/main.js');
      await main(process.argv);
    }
  }
}
