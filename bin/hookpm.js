#!/usr/bin/env node
// CommonJS (bin/package.json), so a start skips Node's ES module loader. Runs the CLI
// (src/cli/start/entry.ts) from its bundle, dist/bundle/entry.cjs, or from the compiled modules
// of dist/ when there is no bundle, it is older than them (a bare `tsc` ran since the build), or
// it cannot be loaded (a file of it missing or damaged, as after a partial upgrade: a linked
// agent event is then still answered, engine.md B7).
'use strict';
const { statSync } = require('node:fs');
const { join } = require('node:path');

const dist = join(__dirname, '..', 'dist');
const mtime = (path) => statSync(path, { throwIfNoEntry: false })?.mtimeMs;
const bundle = join(dist, 'bundle', 'entry.cjs');
const bundled = mtime(bundle);
const entry =
  bundled !== undefined && bundled >= (mtime(join(dist, 'cli', 'start', 'entry.js')) ?? 0)
    ? loadBundle()
    : null;
if (entry !== null) entry.main(process.argv);
else import('../dist/cli/start/entry.js').then(({ main }) => main(process.argv));

/** The bundle's entry, or null when it cannot be loaded. */
function loadBundle() {
  try {
    const loaded = require(bundle);
    return typeof loaded.main === 'function' ? loaded : null;
  } catch {
    return null;
  }
}
