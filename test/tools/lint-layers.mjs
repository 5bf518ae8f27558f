#!/usr/bin/env node
// Enforces the layer rule of STYLE.md: imports point down only, adapters never import another
// adapter, and pure modules touch no I/O (no node:fs, node:child_process, undici, execa, tar,
// and no `process`). Run by `npm run lint` (and so by `npm test`).
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

// The source tree to check: the repository's src/, or the directory given as the first argument.
const src = process.argv[2]
  ? resolve(process.argv[2])
  : join(resolve(dirname(fileURLToPath(import.meta.url)), '../..'), 'src');

/** Adapter files that live in otherwise pure directories. */
const ADAPTER_FILES = {
  'engine/run-handler.ts': 'engine-runner',
  'engine/process-groups.ts': 'engine-runner',
};
const PURE_DIRS = ['hooks', 'plugin', 'json', 'engine', 'registry'];
const ADAPTER_DIRS = ['store', 'workspace', 'registry', 'engine'];
const RANK = { errors: 0, pure: 1, io: 2, adapter: 3, ops: 4, index: 5, cli: 6 };
const IO_MODULES =
  /^(node:)?(fs|fs\/promises|child_process|net|http|https|dgram|worker_threads)$|^(undici|execa|tar)(\/|$)/;
/** Files in src/registry/ that do network or disk I/O; the rest of src/registry/ is pure. */
const REGISTRY_ADAPTERS =
  /^registry\/(http|fetch|read|load|cache|npm-client|git)[^/]*\.ts$|^registry\/adapters\//;

function classify(rel) {
  const p = rel.split(sep).join('/');
  if (p === 'errors.ts') return { layer: 'errors', group: 'errors' };
  if (p === 'index.ts') return { layer: 'index', group: 'index' };
  const top = p.split('/')[0];
  if (top === 'cli') return { layer: 'cli', group: 'cli' };
  if (top === 'ops') return { layer: 'ops', group: 'ops' };
  if (top === 'io') return { layer: 'io', group: 'io' };
  if (ADAPTER_FILES[p]) return { layer: 'adapter', group: ADAPTER_FILES[p] };
  if (top === 'registry' && REGISTRY_ADAPTERS.test(p))
    return { layer: 'adapter', group: 'registry' };
  if (PURE_DIRS.includes(top)) return { layer: 'pure', group: top };
  if (ADAPTER_DIRS.includes(top)) return { layer: 'adapter', group: top };
  return { layer: 'unknown', group: top };
}

function walk(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...walk(full));
    else if (name.endsWith('.ts')) out.push(full);
  }
  return out;
}

function stripComments(text) {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

const IMPORT_RE =
  /(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s*['"]([^'"]+)['"]/gm;

const problems = [];
for (const file of walk(src)) {
  const rel = relative(src, file);
  const me = classify(rel);
  const text = stripComments(readFileSync(file, 'utf8'));
  if (me.layer === 'unknown') problems.push(`${rel}: not in a known layer directory (STYLE.md)`);
  if (me.layer === 'pure' && /\bprocess\s*\.\s*\w/.test(text)) {
    problems.push(`${rel}: a pure module reads \`process\``);
  }
  for (const m of text.matchAll(IMPORT_RE)) {
    const spec = m[1] ?? m[2] ?? m[3];
    if (!spec) continue;
    const typeOnly = /^\s*(import|export)\s+type\s/.test(m[0]);
    if (!spec.startsWith('.')) {
      if ((me.layer === 'pure' || me.layer === 'errors') && IO_MODULES.test(spec) && !typeOnly) {
        problems.push(`${rel}: a pure module imports ${spec}`);
      }
      continue;
    }
    const target = relative(src, resolve(dirname(file), spec.replace(/\.js$/, '.ts')));
    const them = classify(target);
    if (typeOnly && RANK[them.layer] <= RANK.pure) continue;
    if (RANK[them.layer] > RANK[me.layer]) {
      problems.push(
        `${rel}: ${me.layer} imports ${them.layer} module ${target} (imports point down only)`,
      );
    } else if (me.layer === 'adapter' && them.layer === 'adapter' && me.group !== them.group) {
      problems.push(
        `${rel}: adapter ${me.group}/ imports adapter ${target} (adapters never import each other)`,
      );
    }
  }
}

if (problems.length > 0) {
  console.error(
    `lint-layers: ${problems.length} problem(s)\n` + problems.map((p) => `  ${p}`).join('\n'),
  );
  process.exit(1);
}
console.log('lint-layers: ok');
