#!/usr/bin/env node
// CommonJS (bin/package.json), so a start skips Node's ES module loader. Runs the CLI
// (src/cli/start/entry.ts) from its bundle, dist/bundle/entry.cjs, or from the compiled modules
// of dist/ when there is no bundle, it is older than them (a bare `tsc` ran since the build), or
// it cannot be loaded (a file of it missing or damaged, as after a partial upgrade: a linked
// agent event is then still answered, engine.md B7); when neither loads, a linked event still
// fails closed (cannotLoad).
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
else import('../dist/cli/start/entry.js').then(({ main }) => main(process.argv), cannotLoad);

/** The bundle's entry, or null when it cannot be loaded. */
function loadBundle() {
  try {
    const loaded = require(bundle);
    return typeof loaded.main === 'function' ? loaded : null;
  } catch {
    return null;
  }
}

/**
 * engine.md B7: hookpm's own modules cannot be loaded either (dist/ missing or damaged). A linked
 * event is still answered, as the link's shell answers when hookpm is gone (B9, the same reading
 * of the payload's text as missingAnswer in src/agents/link-command.ts): exit 2 on a blocking
 * event, on a Stop unless `stop_hook_active`, exit 1 elsewhere, the reason on stderr. Any other
 * command fails as it did, with the error.
 */
function cannotLoad(error) {
  const args = process.argv.slice(2);
  if (args[0] !== 'wire' || args.includes('--background')) throw error;
  let payload = '';
  try {
    payload = require('node:fs').readFileSync(0, 'latin1');
  } catch {
    // No payload to read: the answer of an event that cannot block.
  }
  const quoted = (names) => names.some((name) => payload.includes(`"${name}"`));
  const active = /"stop_hook_active": ?true/.test(payload);
  const blocks =
    quoted(['PreToolUse', 'PermissionRequest', 'UserPromptSubmit', 'BeforeTool', 'BeforeAgent']) ||
    (!active && quoted(['Stop', 'AfterAgent']));
  const why = error instanceof Error ? error.message : String(error);
  process.stderr.write(
    `hookpm fails closed: hookpm's own files cannot be loaded (${why.split('\n')[0]}), so no plugin guard could decide; reinstall hookpm\n`,
  );
  process.exitCode = blocks ? 2 : 1;
}
