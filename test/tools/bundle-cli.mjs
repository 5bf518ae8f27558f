#!/usr/bin/env node
// The second step of `npm run build` (after tsc): bundles the compiled CLI with rolldown (vite's
// bundler, pinned by package-lock.json) into CommonJS scripts in dist/bundle/:
// - cli.cjs, the whole CLI (dist/cli/main.js and everything it imports but undici) as the body of
//   a CommonJS module wrapper function, whose last line is `//# hookpm-bundle <content hash>`;
//   fast.cjs, the same for the fast paths of install, list and search (dist/cli/fast-entry.js);
//   undici.cjs, undici. src/cli/start.ts runs them through V8's code cache: loading ~200 small ES
//   modules costs about 100 ms of resolving, reading, compiling and linking at every start
//   (bench/install.bench.mjs). `await import(...)` stays lazy inside a script (a module is
//   evaluated on first use), so each command evaluates only the code it needs.
// - start.cjs, src/cli/start.ts alone (with the store paths it needs), which bin/hookpm.js requires:
//   a start then loads no ES module at all. start.ts uses the bundle only when it is newer than
//   dist/cli/entry.js, so a plain `tsc` afterwards never makes it run stale code.
//
// The bundles live two levels below the package root, like dist/cli/, so the `import.meta.dirname`
// relative paths of the sources (package.json, registry-fixtures/) resolve the same. They are
// written into a scratch directory and swapped in with renames, so a starting process sees the old
// bundles, the new ones, or none (and then runs dist/).
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
// undici stays out of the CLI's scripts: `require("undici")` there gets dist/bundle/undici.cjs.
await bundle('cli', join(DIST, 'cli', 'main.js'), [/^undici$/]);
await bundle('fast', join(DIST, 'cli', 'fast-entry.js'), [/^undici$/]);
await bundle('undici', 'undici');
await bundle('start', join(DIST, 'cli', 'start.js'));
for (const name of ['cli', 'fast']) {
  const code = lazyBuiltins(
    plainNamespaces(asciiOnly(await readFile(join(scratch, `${name}.cjs`), 'utf8'))),
  );
  if (/^(let|const|var) [\w$]+ = require\("undici"\)/m.test(code))
    throw new Error(`dist/bundle/${name}.cjs: undici is required at start; import it lazily`);
  await writeScript(name, code);
}
await writeScript('undici', asciiOnly(await readFile(join(scratch, 'undici.cjs'), 'utf8')));
const start = join(scratch, 'start.cjs');
await writeFile(start, plainNamespaces(await readFile(start, 'utf8')));
await swapIn(scratch, OUT);

/**
 * Writes a script start.ts runs: the module body inside the wrapper Node gives a CommonJS module,
 * so start.ts compiles the file's text as it is (wrapping it at every start would copy 1.5 MB into
 * V8's heap: a young-generation collection or two, about 2 ms), and a last line naming the content,
 * so a reader keys its code cache by the very text it compiles.
 */
async function writeScript(name, code) {
  const hash = createHash('sha256').update(code).digest('hex').slice(0, 16);
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${code}\n})`;
  await writeFile(join(scratch, `${name}.cjs`), `${wrapped}\n//# hookpm-bundle ${hash}\n`);
}

/** Bundles one entry (a compiled file or a package) into `<scratch>/<name>.cjs`. */
async function bundle(name, input, external = []) {
  await build({
    input: { [name]: input },
    cwd: ROOT,
    platform: 'node',
    // Node's own modules stay `require`s; every package is bundled (they are all pure JavaScript).
    external: [/^node:/, ...external],
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
      // `import("undici")` becomes a `require` start.ts answers (a script has no module loader).
      dynamicImportInCjs: false,
      // Every start reads the whole text: without comments it is much shorter.
      comments: false,
      // The sources are ES modules, which are strict code.
      banner: '"use strict";',
    },
  });
}

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
 * The bundle with each of Node's own modules required on first use instead of at start: rolldown
 * hoists the `node:` imports of every bundled ES module to the top of the script, and commander
 * requires node:child_process when it loads, so without this every start would load node:http,
 * node:child_process, node:readline and the others whatever the command. A
 * `let|const x = require("node:y");` line becomes a proxy that requires the module when one of its
 * members is first read. Only a variable that the whole bundle uses solely as `x.member`, and
 * never assigns a member of, is made lazy (a default or namespace use, through `__toESM`, stays
 * eager), so the proxy needs no trap but `get`.
 */
function lazyBuiltins(source) {
  const declaration = /^(\s*)(let|const) ([\w$]+) = require\("(node:[\w/]+)"\);$/gm;
  const count = (pattern) => source.match(pattern)?.length ?? 0;
  const lazy = [...source.matchAll(declaration)].filter(([, , , name]) => {
    const word = `(?<![\\w$.])${name.replace(/\$/g, '\\$')}`;
    return (
      count(new RegExp(`${word}(?![\\w$])`, 'g')) === count(new RegExp(`${word}\\.`, 'g')) + 1 &&
      count(new RegExp(`${word}\\.[\\w$]+\\s*=(?!=)`, 'g')) === 0
    );
  });
  if (lazy.length === 0) return source;
  const helper =
    'const __lazyBuiltin = (id) => { let loaded; ' +
    'return new Proxy({}, { get: (_, key) => (loaded ??= require(id))[key] }); };';
  let out = source;
  for (const [line, indent, kind, name, id] of lazy)
    out = out.replace(line, `${indent}${kind} ${name} = __lazyBuiltin(${JSON.stringify(id)});`);
  // After the "use strict" banner, before any code that could use it.
  const afterBanner = out.indexOf('\n') + 1;
  return `${out.slice(0, afterBanner)}${helper}\n${out.slice(afterBanner)}`;
}

/**
 * The bundle with plain modules where rolldown wraps a built-in or CommonJS module in an ES
 * namespace (`x = __toESM(x, 1);`, `import_x = __toESM(require_x(), 1);`): the wrapper defines a
 * bound getter for every member of the module (node:process has 79), about 0.1 ms a module at
 * every start. Such a namespace (node mode) has the module as its `default` and the module's
 * members as its own, so a name the bundle uses only as `name.default` or `name.member` (besides
 * its declaration and the wrapping line) keeps the module itself, and `name.default` becomes
 * `name`. lazyBuiltins runs after, and may then make the module lazy.
 */
function plainNamespaces(source) {
  const wrapping = /^(\s*)([\w$]+) = __toESM\((\2|require_[\w$]+\(\)), 1\);\n/gm;
  let out = source;
  for (const [line, indent, name, inner] of source.matchAll(wrapping)) {
    const word = `(?<![\\w$.])${name.replace(/\$/g, '\\$')}(?![\\w$])`;
    const bare = out.match(new RegExp(`${word}(?!\\.)`, 'g'))?.length ?? 0;
    // The declaration, and the name once or twice in the wrapping line.
    if (bare !== (inner === name ? 3 : 2)) continue;
    out = out
      .replace(line, inner === name ? '' : `${indent}${name} = ${inner};\n`)
      .replace(new RegExp(`${word}\\.default(?![\\w$])`, 'g'), name);
  }
  return out;
}

/**
 * The bundle with every non-ASCII UTF-16 unit written as a `\uXXXX` escape, so start.ts can
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
