#!/usr/bin/env node
// The second step of `npm run build` (after tsc): bundles the compiled CLI, from its entry
// dist/cli/start/entry.js, with rolldown (vite's bundler, pinned by package-lock.json) into
// CommonJS chunks in dist/bundle/, which bin/hookpm.js requires (entry.cjs): a chunk is one file
// for many modules, and each `import()` of the sources a chunk of its own, required only when a
// command reaches it, so `list` reads neither commander nor zod nor undici. Node's own modules are
// required by the chunks that import them, but LAZY's, whose functions load the module on their
// first call (lazyBuiltins). Nothing of rolldown's output is rewritten afterwards.
//
// The chunks live two levels below the package root, like dist/cli/, so the sources' relative
// paths to the package root (io/package-root.ts) resolve the same. They are written into a
// scratch directory and swapped in with renames, so a starting process sees the old chunks, the
// new ones, or none (and then runs dist/).
import { rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { build } from 'rolldown';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const DIST = join(ROOT, 'dist');
const OUT = join(DIST, 'bundle');
const scratch = join(DIST, `bundle.tmp-${process.pid}`);
const old = join(DIST, `bundle.old-${process.pid}`);

/**
 * Node's modules that commands import but often do not call (fs/promises for clean-up after a
 * failure, node:http for `registry serve`, ...): loading them costs about 1 ms each at every start
 * of a command whose chunks import them. Only functions are imported from these (a class or a
 * constant would be missing from the module lazyBuiltins makes, and the build would fail).
 */
const LAZY = ['fs/promises', 'crypto', 'zlib', 'child_process', 'timers/promises', 'url', 'http'];

await rm(scratch, { recursive: true, force: true });
// jsonc-parser's `main` is a UMD build whose inner requires a bundle cannot follow; its ES build
// (`module`) bundles like any other.
const resolve = {
  alias: { 'jsonc-parser': join(ROOT, 'node_modules/jsonc-parser/lib/esm/main.js') },
};
/**
 * What packages get for some of Node's modules in place of the module through rolldown's
 * interop, by package and module (builtinStandIns):
 * - `'itself'`: the module itself as the default export. env-paths imports `node:path`, `node:os`
 *   and `node:process` by default import only, and rolldown would hand it a copy of each with a
 *   getter per member (its ES interop for a CommonJS module), about 1 ms at each start of a
 *   command; a named import added to it fails the build (rolldown: MISSING_EXPORT).
 * - a list of members: a stand-in for a module the package `require`s when it loads but uses only
 *   on paths hookpm never takes, holding the members listed, which the package reads as it loads.
 *   commander's `node:child_process` runs executable subcommands (hookpm has none); undici's
 *   `node:http2` makes HTTP/2 connections (hookpm asks for none; undici reads the protocol's
 *   constants as it loads). `node:http2` loads `node:tls` and `node:crypto`, `node:child_process`
 *   loads `node:net` and the streams: together 10-20 ms at the start of a command that goes to
 *   the network.
 */
const BUILTIN_STAND_INS = {
  'env-paths': { 'node:path': 'itself', 'node:os': 'itself', 'node:process': 'itself' },
  commander: { 'node:child_process': [] },
  undici: { 'node:http2': ['constants'] },
};
// Node's own modules stay `require`s (lazyBuiltins decides for LAZY's, builtinStandIns for
// BUILTIN_STAND_INS's); packages are bundled.
const external = (id, importer) =>
  id.startsWith('node:') &&
  !LAZY.includes(id.slice('node:'.length)) &&
  standInFor(BUILTIN_STAND_INS, id, importer) === null;
// A module both imported and lazily imported simply stays where it is: not worth a warning.
function onLog(level, log, handler) {
  if (log.code !== 'INEFFECTIVE_DYNAMIC_IMPORT') handler(level, log);
}
const WIRE_ENTRY = join(DIST, 'cli', 'start', 'wire-entry.js');
/**
 * zod's modules, whose schemas are built as their chunk loads (some 60 KB): never in the chunk
 * every linked event loads (wire-core) nor in the one every command loads (entry); the build fails
 * when either holds them (chunksHolding), as a new `import()` missing from WIRE_MORE once did.
 */
const ZOD = /[\\/]node_modules[\\/]zod[\\/]/;
/** The module that stands for WIRE_ENTRY in the CLI's bundle (bundledApart). */
const BUNDLED_APART = '\0bundled-apart';
/**
 * The modules behind the `import()`s that a linked event answered from its session's pin does not
 * make: the pin's making (first event), the state's read when a pinned plugin is found changed
 * (pin-repaired) or when the policy allows registries (policy-registries), the JSON output reader
 * (with zod), the error report.
 */
const WIRE_MORE = [
  'ops/wire/make-pin.js',
  'store/pinned-trees-named.js',
  'ops/wire/pin-repaired.js',
  'ops/wire/policy-registries.js',
  'plugin/created-files.js',
  'engine/read-wire-output.js',
  'cli/report-error.js',
].map((file) => join(DIST, file));
/** The modules behind the `import()`s that a linked event makes when handlers match. */
const WIRE_RUN = [
  'engine/run-matched.js',
  'ops/wire/answer-claude-code-event.js',
  'ops/wire/answer-background.js',
].map((file) => join(DIST, file));
/** What both builds share: Node's platform, the module rules above, CommonJS without comments. */
const common = { cwd: ROOT, platform: 'node', external, resolve, logLevel: 'warn', onLog };
// Every start reads the text of the chunks it loads: without comments it is much shorter, and
// with non-ASCII characters escaped V8 holds it as a one-byte string, not a two-byte one.
const output = {
  dir: scratch,
  format: 'cjs',
  entryFileNames: '[name].cjs',
  comments: false,
  charset: 'ascii',
};
// `hookpm wire <agent>` (src/cli/start/wire-entry.ts) as three chunks, not the twenty its modules
// would be split into: what every linked event runs (wire-core, the entry chunk itself, which
// preserveEntrySignatures lets the group join, so an event loads one file for it), what an event
// that runs handlers adds (wire-run), and what only some events need (wire-more: a session's first
// event builds its pin, a handler that printed JSON has it read with zod, an error is reported).
// An event answered from its session's pin reads and compiles only the chunks it runs, through
// their code caches; and as a chunk's cache is made by the first run that loads it
// (src/cli/start/chunk-cache.ts), the runner's is made by a run that ran handlers, so it holds
// the runner's compiled functions (made by a session's first event, which often runs none, it
// would not, and every later event would compile them again).
const wireGraph = moduleGraph();
const wire = await build({
  ...common,
  input: { 'wire-core': WIRE_ENTRY },
  preserveEntrySignatures: 'allow-extension',
  // builtinStandIns first: it decides for packages' requires that lazyBuiltins would let through.
  plugins: [builtinStandIns(BUILTIN_STAND_INS), lazyBuiltins(LAZY), wireGraph.plugin],
  output: {
    ...output,
    entryFileNames: '[name]-[hash].cjs',
    chunkFileNames: '[name]-[hash].cjs',
    codeSplitting: {
      // A module goes to the first group whose test it passes.
      groups: [
        {
          name: 'wire-core',
          test: (id) => wireGraph.reachedWithout(WIRE_ENTRY, [...WIRE_MORE, ...WIRE_RUN], id),
        },
        { name: 'wire-run', test: (id) => wireGraph.reachedWithout(WIRE_ENTRY, WIRE_MORE, id) },
        { name: 'wire-more', test: () => true },
      ],
    },
  },
});
// The CLI; its import of wire-entry.js is a `require` of the wire bundle's entry chunk, built above
// (its name too holds the hash of its content: V8 checks only a cache's source length).
const CLI_ENTRY = join(DIST, 'cli', 'start', 'entry.js');
const HTTP_CLIENT = join(DIST, 'registry', 'http', 'http-client.js');
const cliGraph = moduleGraph();
const wireChunk = wire.output.find((chunk) => chunk.type === 'chunk' && chunk.isEntry).fileName;
const cli = await build({
  ...common,
  input: { entry: CLI_ENTRY },
  preserveEntrySignatures: 'allow-extension',
  plugins: [
    builtinStandIns(BUILTIN_STAND_INS),
    lazyBuiltins(LAZY),
    cliGraph.plugin,
    bundledApart(WIRE_ENTRY, `./${wireChunk}`),
  ],
  output: {
    ...output,
    chunkFileNames: '[name]-[hash].cjs',
    // What every start runs is the entry chunk itself (preserveEntrySignatures lets the group
    // join it), loaded by Node's loader as one file instead of one per module it imports.
    codeSplitting: {
      groups: [
        {
          name: 'entry',
          test: (id) => id === BUNDLED_APART || cliGraph.reachedStatically(CLI_ENTRY, id),
        },
        // undici's files that a fetch imports (http-client.js) stay in one chunk with it, also
        // those that http-proxy-client.js, imported only by a fetch through a proxy, shares.
        { name: 'http-client', test: (id) => cliGraph.reachedStatically(HTTP_CLIENT, id) },
      ],
    },
  },
});
const holdingZod = [
  ...chunksHolding(wire.output, 'wire-core', ZOD).map((file) => `${file} (every linked event)`),
  ...chunksHolding(cli.output, 'entry', ZOD).map((file) => `${file} (every command)`),
];
if (holdingZod.length > 0) {
  await rm(scratch, { recursive: true, force: true });
  console.error(
    `bundle-cli: zod's code is in ${holdingZod.join(' and ')}, the chunk each of these loads: ` +
      'the import() that reaches it from wire-entry.js belongs in WIRE_MORE or WIRE_RUN, and a ' +
      'static import that reaches it from entry.js is to be an import().',
  );
  process.exit(1);
}
await swapIn(scratch, OUT);

/**
 * The file names of the chunks named `name` of a build's `output` that hold code of a module whose
 * id `pattern` matches (a module tree-shaken to nothing holds none).
 */
function chunksHolding(output, name, pattern) {
  return output
    .filter((chunk) => chunk.type === 'chunk' && chunk.name === name)
    .filter((chunk) =>
      Object.entries(chunk.modules).some(([id, m]) => pattern.test(id) && m.renderedLength > 0),
    )
    .map((chunk) => chunk.fileName);
}

/**
 * A rolldown plugin: each of Node's modules `names` (as `node:<name>`) is a module of the bundle
 * whose functions, all those the real module has, call the real one, loaded on the first call.
 */
function lazyBuiltins(names) {
  const prefix = '\0lazy-builtin:';
  return {
    name: 'lazy-builtins',
    // Only for ES imports: a package's `require` gets the real module (it may read any member).
    resolveId(id, importer, { kind }) {
      const name = id.replace(/^node:/, '');
      if (!names.includes(name)) return null;
      if (kind !== 'import-statement') return { id: `node:${name}`, external: true };
      return { id: `${prefix}${name}`, moduleSideEffects: false };
    },
    async load(id) {
      if (!id.startsWith(prefix)) return null;
      const name = `node:${id.slice(prefix.length)}`;
      const lines = [`let m;\nconst load = () => (m ??= process.getBuiltinModule('${name}'));`];
      for (const [key, value] of Object.entries(await import(name)))
        if (typeof value === 'function' && /^[a-z][\w$]*$/.test(key))
          lines.push(`export function ${key}(...args) { return load().${key}(...args); }`);
      return { code: lines.join('\n'), moduleType: 'js' };
    },
  };
}

/** The name of the package whose file `importer` is (`@scope/name` or `name`), else null. */
function packageOf(importer) {
  const pkg = importer?.match(/[\\/]node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)[\\/]/)?.[1];
  return pkg === undefined ? null : pkg.replace('\\', '/');
}

/** What `byPackage` gives the package of `importer` for `id`, a `node:` module, else null. */
function standInFor(byPackage, id, importer) {
  const pkg = packageOf(importer);
  return pkg === null ? null : (byPackage[pkg]?.[id] ?? null);
}

/**
 * A rolldown plugin: in the packages of `byPackage`, an import or `require` of one of the Node
 * modules listed for the package is a module of the bundle: for `'itself'`, one whose default
 * export is the Node module; for a list of members, a stand-in holding those members as the Node
 * that builds has them (data that every Node has alike, such as node:http2's constants; the build
 * fails on a member that is not plain data) and reading any other member from the module itself,
 * loaded when first read.
 */
function builtinStandIns(byPackage) {
  const prefix = '\0builtin-stand-in:';
  return {
    name: 'builtin-stand-ins',
    resolveId(id, importer) {
      const standIn = standInFor(byPackage, id, importer);
      if (standIn === null) return null;
      const kept = standIn === 'itself' ? standIn : standIn.join(',');
      return { id: `${prefix}${id}\0${kept}`, moduleSideEffects: false };
    },
    async load(id) {
      if (!id.startsWith(prefix)) return null;
      const [name, kept] = id.slice(prefix.length).split('\0');
      const code =
        kept === 'itself'
          ? `export default process.getBuiltinModule('${name}');`
          : await deferredModule(name, kept === '' ? [] : kept.split(','));
      return { code, moduleType: 'js' };
    },
  };
}

/** The CommonJS text of builtinStandIns' stand-in for Node's module `name`, keeping `members`. */
async function deferredModule(name, members) {
  const real = await import(name);
  const kept = {};
  for (const key of members) {
    kept[key] = real[key];
    if (!isDeepStrictEqual(JSON.parse(JSON.stringify(kept[key])), kept[key]))
      throw new Error(`builtinStandIns: ${name}'s ${key} is not plain data`);
  }
  return [
    `const kept = ${JSON.stringify(kept)};`,
    'let m;',
    `const load = () => (m ??= process.getBuiltinModule(${JSON.stringify(name)}));`,
    'module.exports = new Proxy(kept, {',
    '  get: (target, key) => (Object.hasOwn(target, key) ? target[key] : load()[key]),',
    '});',
  ].join('\n');
}

/**
 * A rolldown plugin: the module `file` is a bundle of its own, `chunk`, beside this one. Importing
 * it gives a module whose `main` requires that bundle on its first call: a `require`, so the chunk
 * loads through Node's CommonJS loader and the code cache (src/cli/start/chunk-cache.ts).
 */
function bundledApart(file, chunk) {
  const id = BUNDLED_APART;
  return {
    name: 'bundled-apart',
    resolveId(source, importer) {
      if (source === chunk) return { id: chunk, external: true };
      if (importer === undefined || !source.endsWith('.js')) return null;
      return join(dirname(importer), source) === file ? id : null;
    },
    load(loading) {
      if (loading !== id) return null;
      return `export const main = (...args) => require(${JSON.stringify(chunk)}).main(...args);`;
    },
  };
}

/**
 * A rolldown plugin that keeps the module graph of the build, and asks it: `reachedWithout(entry,
 * apart, id)` whether module `id` is reached from `entry` through its imports, static and dynamic,
 * without a dynamic import of a module of `apart`. Known once the build has loaded every module,
 * before chunks are made (when code splitting groups ask).
 */
function moduleGraph() {
  const edges = new Map();
  const reached = new Map();
  /** Every module some module imports with `import()`, once the build has ended. */
  let dynamic;
  return {
    plugin: {
      name: 'module-graph',
      buildEnd() {
        for (const id of this.getModuleIds()) {
          const info = this.getModuleInfo(id);
          edges.set(id, { imports: info.importedIds, dynamic: info.dynamicallyImportedIds });
        }
      },
    },
    /** Whether module `id` is reached from `entry` through static imports alone. */
    reachedStatically(entry, id) {
      dynamic ??= [...new Set([...edges.values()].flatMap((edge) => edge.dynamic))];
      return this.reachedWithout(entry, dynamic, id);
    },
    reachedWithout(entry, apart, id) {
      const key = `${entry}\0${apart.join('\0')}`;
      let seen = reached.get(key);
      if (seen === undefined) {
        if (edges.size === 0) throw new Error('module-graph: asked before the build ended');
        // A module renamed or no longer imported lazily would move its code to the wrong chunk.
        const lazy = new Set([...edges.values()].flatMap(({ dynamic }) => dynamic));
        const missing = apart.filter((file) => !lazy.has(file));
        if (missing.length > 0)
          throw new Error(`module-graph: not imported with import(): ${missing.join(', ')}`);
        seen = new Set([entry]);
        const queue = [entry];
        while (queue.length > 0) {
          const { imports = [], dynamic = [] } = edges.get(queue.pop()) ?? {};
          for (const next of [...imports, ...dynamic.filter((d) => !apart.includes(d))]) {
            if (seen.has(next)) continue;
            seen.add(next);
            queue.push(next);
          }
        }
        reached.set(key, seen);
      }
      return seen.has(id);
    },
  };
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
