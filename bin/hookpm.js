#!/usr/bin/env node
// CommonJS (bin/package.json), so a start skips Node's ES module loader. Runs the CLI
// (src/cli/start/entry.ts) from its bundle, dist/bundle/entry.cjs, or from the compiled modules
// of dist/ when there is no bundle or it is older than them (a bare `tsc` ran since the build).
'use strict';
const { statSync } = require('node:fs');
const { join } = require('node:path');

const dist = join(__dirname, '..', 'dist');
const mtime = (path) => statSync(path, { throwIfNoEntry: false })?.mtimeMs;
const bundle = join(dist, 'bundle', 'entry.cjs');
const bundled = mtime(bundle);
if (bundled !== undefined && bundled >= (mtime(join(dist, 'cli', 'start', 'entry.js')) ?? 0))
  require(bundle).main(process.argv);
else import('../dist/cli/start/entry.js').then(({ main }) => main(process.argv));
