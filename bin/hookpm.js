#!/usr/bin/env node
// CommonJS (bin/package.json), so a start skips Node's ES module loader. dist/bundle/start.cjs
// (src/cli/start.ts) answers `--version` and runs the bundled CLI; when there is no current bundle
// (only `tsc` ran), the compiled modules of dist/ run instead.
'use strict';
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const start = join(__dirname, '..', 'dist', 'bundle', 'start.cjs');
if (!(existsSync(start) && require(start).start(process.argv)))
  import('../dist/cli/entry.js').then(({ main }) => main(process.argv));
