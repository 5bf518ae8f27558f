#!/usr/bin/env node
// The second step of `npm run build` (after tsc): bundles the compiled CLI (dist/cli/main.js) with
// rolldown (vite's bundler, pinned by package-lock.json) into one CommonJS script,
// dist/bundle/cli.cjs, whose last line is `//# hookpm-bundle <content hash>`. src/cli/run-bundle.ts
// runs it through V8's code cache: loading ~200 small ES modules costs about 100 ms of resolving,
// reading, compiling and linking at every start (bench/install.bench.mjs). `await import(...)`
// stays lazy inside the bundle (a module is evaluated on first use), so undici and the other
// commands' code still run only when needed. bin/hookpm.js uses the bundle only when it is newer
// than dist/cli/main.js, so a plain `tsc` afterwards never makes it run stale code.
//
// The bundle lives two levels below the package root, like dist/cli/, so the `import.meta.url`
// relative paths of the sources (package.json, registry-fixtures/) resolve the same. It is written
// into a scratch directory and swapped in with renames, so a starting process sees the old bundle,
// the new one, or none (and then runs dist/).
import { createHash } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';
import { parseAst } from 'rolldown/parseAst';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const DIST = join(ROOT, 'dist');
const OUT = join(DIST, 'bundle');
const scratch = join(DIST, `bundle.tmp-${process.pid}`);
const old = join(DIST, `bundle.old-${process.pid}`);

await rm(scratch, { recursive: true, force: true });
await build({
  input: { cli: join(DIST, 'cli', 'main.js') },
  platform: 'node',
  // Node's own modules stay `require`s; every package is bundled (they are all pure JavaScript).
  external: [/^node:/],
  logLevel: 'warn',
  // A module both imported and lazily imported simply stays where it is: not worth a warning.
  onLog(level, log, handler) {
    if (log.code !== 'INEFFECTIVE_DYNAMIC_IMPORT') handler(level, log);
  },
  output: {
    dir: scratch,
    format: 'cjs',
    entryFileNames: '[name].cjs',
    codeSplitting: false,
    // The sources are ES modules, which are strict code.
    banner: '"use strict";',
  },
});
const code = asciiOnly(await readFile(join(scratch, 'cli.cjs'), 'utf8'));
const hash = createHash('sha256').update(code).digest('hex').slice(0, 16);
// The last line names the content, so a reader keys its code cache by the very text it compiles.
await writeFile(join(scratch, 'cli.cjs'), `${code}\n//# hookpm-bundle ${hash}\n`);
await swapIn(scratch, OUT);

/** Replaces `out` with `dir`; another build swapping at the same time only makes it try again. */
async function swapIn(dir, out) {
  for (let attempt = 0; ; attempt += 1) {
    await rename(out, old).catch((error) => {
      if (error.code !== 'ENOENT') throw error;
    });
    await rm(old, { recursive: true, force: true });
    try {
      await rename(dir, out);
      return;
    } catch (error) {
      if ((error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') || attempt >= 20) throw error;
    }
  }
}

/**
 * The bundle with every non-ASCII UTF-16 unit written as a `\uXXXX` escape, so run-bundle.ts can
 * read it as latin1 (about 5 ms less than decoding UTF-8 at every start). Outside tagged templates
 * (whose raw text would change; the build fails if one holds such a character) the escape means
 * the same character wherever it can occur: comments, strings, templates, regular expressions.
 */
function asciiOnly(source) {
  const visit = (node) => {
    if (node === null || typeof node !== 'object') return;
    if (node.type === 'TaggedTemplateExpression' && /[^\x00-\x7f]/.test(JSON.stringify(node.quasi)))
      throw new Error(`dist/bundle/cli.cjs: non-ASCII text in a tagged template at ${node.start}`);
    for (const value of Object.values(node)) visit(value);
  };
  visit(parseAst(source));
  return source.replace(/[\u0080-\uffff]/g, (unit, at) => {
    // `\·` (an escaped character) would become a backslash followed by `u00b7`.
    if (/(^|[^\\])(\\\\)*\\$/.test(source.slice(Math.max(0, at - 64), at)))
      throw new Error(`dist/bundle/cli.cjs: an escaped non-ASCII character at ${at}`);
    return `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}
