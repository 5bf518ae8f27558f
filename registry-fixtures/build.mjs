#!/usr/bin/env node
// Regenerates the checked-in `examples` registry (index.json, tarballs/, index.html) in this
// directory from its sources: plugins/<name>/ holds each plugin at its newest version, and
// history/<name>-<version>/ holds older versions kept so that updates can be demonstrated
// (guard 1.0.0 -> 1.1.0 widens the consent surface by one handler). Run `npm run fixtures`
// (which builds dist/ first). test/registry/fixtures-fresh.test.ts fails when the checked-in
// files differ from a fresh build.
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));

/** The options of the examples registry build, writing into `outDir`. */
export function fixtureOptions(outDir = here) {
  return {
    pluginsDir: join(here, 'plugins'),
    historyDir: join(here, 'history'),
    outDir,
    name: 'examples',
    description:
      'Example hook plugins that ship with hookpm: guards, formatting, context, audit and notifications.',
    publishedAt: '2026-11-01T00:00:00Z',
    // Six plugins: the monolithic index.json is the whole registry; no sparse layout beside it.
    sparse: false,
  };
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { buildRegistry } = await import('../dist/ops/registries/build.js');
  const result = await buildRegistry(fixtureOptions());
  const count = Object.keys(result.index.plugins).length;
  console.log(
    `registry-fixtures: ${count} plugins, ${result.tarballs.length} tarballs written to ${result.outDir}`,
  );
  for (const removed of result.removed) console.log(`  removed stale ${removed}`);
}
