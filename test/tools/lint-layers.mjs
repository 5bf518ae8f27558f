#!/usr/bin/env node
// Enforces the layer rules of STYLE.md over src/ (or the directory given as the first argument):
// - imports point down only (errors < pure < io < adapters < publish < ops < index < cli);
// - an adapter never imports another adapter's directory (store/, workspace/, registry/, the
//   engine runner), not even its pure files;
// - pure modules touch no I/O (no node:fs, node:child_process, undici, execa, tar) and do not
//   read `process`;
// - only cli/ prints, prompts or exits (console, process.stdout/stderr/stdin, readline,
//   process.exit/exitCode);
// - no import cycle, counting value, type and dynamic imports alike;
// - in ops/ (STYLE.md layers, ops/): a command folder (a direct subfolder of ops/ other than
//   steps/) never imports another command folder; a step folder (ops/steps/<step>/) never imports a
//   command folder, and the step folders import each other in no cycle (counted folder by folder);
//   no file sits directly in ops/ (it belongs to a command folder or a step).
// Run by `npm run lint` (and so by `npm test`).
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const src = process.argv[2]
  ? resolve(process.argv[2])
  : join(resolve(dirname(fileURLToPath(import.meta.url)), '../..'), 'src');

/** Adapter files that live in otherwise pure directories, by group. */
const ADAPTER_FILES = {
  'engine/run-handler.ts': 'engine',
  'engine/handler-launch.ts': 'engine',
  'engine/process-groups.ts': 'engine',
  'engine/group-watchdog.ts': 'engine',
  'engine/confine-command.ts': 'engine',
  'engine/confined-stdio.ts': 'engine',
  // dispatchEvent loads the runner when a handler matched; run-matched.ts starts the handlers.
  'engine/dispatch.ts': 'engine',
  'engine/run-matched.ts': 'engine',
};
/**
 * Files outside cli/ that may end the process, and why. process-groups.ts is the library's
 * installExitCleanup: on a fatal signal a host's handler groups are killed, then the host ends with
 * 128 + the signal's number, as a signal's default action would report it.
 */
const MAY_EXIT = new Set(['engine/process-groups.ts']);
const PURE_DIRS = [
  'hooks',
  'plugin',
  'json',
  'engine',
  'registry',
  'agents',
  'text',
  'project',
  'policy',
];
const ADAPTER_DIRS = ['store', 'workspace', 'registry', 'engine'];
const RANK = { errors: 0, pure: 1, io: 2, adapter: 3, publish: 4, ops: 5, index: 6, cli: 7 };
const IO_MODULES =
  /^(node:)?(fs|fs\/promises|child_process|net|http|https|dgram|worker_threads)$|^(undici|execa|tar)(\/|$)/;
/**
 * node:net's address parsing and subnet test, which touch no socket: a pure module may import
 * these names (and only these) from it.
 */
const PURE_NET =
  /^import\s*\{\s*(?:(?:BlockList|isIP|isIPv4|isIPv6)\s*,?\s*)+\}\s*from\s*['"](node:)?net['"]$/;
/** Files of src/registry/ that do network or disk I/O, by name; the rest of it is pure. */
const REGISTRY_ADAPTER = /^(http|fetch|read|load|cache|npm-client|git)[^/]*\.ts$/;
const TALKS = [
  [/\bconsole\s*\.\s*\w/, 'prints (console)'],
  [/\bprocess\s*\.\s*(stdout|stderr)\b/, 'prints (process.stdout/stderr)'],
  [/\bprocess\s*\.\s*stdin\b/, 'reads the terminal (process.stdin)'],
];
const EXITS = /\bprocess\s*\.\s*(exit|exitCode)\b/;
const PROMPT_MODULES = /^(node:)?(readline|readline\/promises|tty)$/;

function classify(rel) {
  const p = rel.split(sep).join('/');
  if (p === 'errors.ts') return { layer: 'errors', group: 'errors' };
  if (p === 'index.ts') return { layer: 'index', group: 'index' };
  const top = p.split('/')[0];
  if (['cli', 'ops', 'io', 'publish'].includes(top)) return { layer: top, group: top };
  if (ADAPTER_FILES[p]) return { layer: 'adapter', group: ADAPTER_FILES[p] };
  const name = p.split('/').pop();
  if (top === 'registry' && REGISTRY_ADAPTER.test(name))
    return { layer: 'adapter', group: 'registry' };
  if (PURE_DIRS.includes(top)) return { layer: 'pure', group: top };
  if (ADAPTER_DIRS.includes(top)) return { layer: 'adapter', group: top };
  return { layer: 'unknown', group: top };
}

/**
 * Where a file of ops/ sits: `{ kind: 'command', name }` in a command folder, `{ kind: 'step',
 * name: 'steps/<step>' }` in a step folder, `{ kind: 'loose' }` directly in ops/ or steps/; null
 * outside ops/.
 */
function opsUnit(p) {
  const parts = p.split('/');
  if (parts[0] !== 'ops') return null;
  if (parts.length === 2) return { kind: 'loose', name: 'ops' };
  if (parts[1] !== 'steps') return { kind: 'command', name: parts[1] };
  if (parts.length === 3) return { kind: 'loose', name: 'ops/steps' };
  return { kind: 'step', name: `steps/${parts[2]}` };
}

/** The ops/ folder rules for one import (see the header); null when it keeps them. */
function opsFolderProblem(rel, target) {
  const me = opsUnit(rel);
  const them = opsUnit(target);
  if (me === null || them === null || me.name === them.name) return null;
  if (them.kind !== 'command') return null;
  if (me.kind === 'command')
    return `${rel}: command folder ops/${me.name}/ imports ${target} of command folder ops/${them.name}/ (a command folder never imports another command folder)`;
  if (me.kind === 'step')
    return `${rel}: step folder ops/${me.name}/ imports ${target} of command folder ops/${them.name}/ (a step never imports a command folder)`;
  return null;
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
/** The import graph: file -> the src files it imports (any kind of import). */
const graph = new Map();
/** The step folders' graph: `steps/<step>` -> the step folders its files import. */
const stepGraph = new Map();
for (const file of walk(src)) {
  const rel = relative(src, file).split(sep).join('/');
  const me = classify(rel);
  const edges = new Set();
  graph.set(rel, edges);
  const text = stripComments(readFileSync(file, 'utf8'));
  if (me.layer === 'unknown') problems.push(`${rel}: not in a known layer directory (STYLE.md)`);
  const unit = opsUnit(rel);
  if (unit?.kind === 'loose')
    problems.push(
      `${rel}: a file directly in ${unit.name}/ (it belongs to a command folder or a step folder)`,
    );
  if (unit?.kind === 'step' && !stepGraph.has(unit.name)) stepGraph.set(unit.name, new Set());
  if (me.layer === 'pure' && /\bprocess\s*\.\s*\w/.test(text)) {
    problems.push(`${rel}: a pure module reads \`process\``);
  }
  if (me.layer !== 'cli') {
    for (const [pattern, what] of TALKS)
      if (pattern.test(text)) problems.push(`${rel}: ${what} outside cli/ (only cli/ talks)`);
    if (!MAY_EXIT.has(rel) && EXITS.test(text))
      problems.push(`${rel}: exits (process.exit/exitCode) outside cli/ (only cli/ talks)`);
  }
  for (const m of text.matchAll(IMPORT_RE)) {
    const spec = m[1] ?? m[2] ?? m[3];
    if (!spec) continue;
    const typeOnly = /^\s*(import|export)\s+type\s/.test(m[0]);
    if (!spec.startsWith('.')) {
      const pureUse = typeOnly || PURE_NET.test(m[0].trim());
      if ((me.layer === 'pure' || me.layer === 'errors') && IO_MODULES.test(spec) && !pureUse) {
        problems.push(`${rel}: a pure module imports ${spec}`);
      }
      if (me.layer !== 'cli' && PROMPT_MODULES.test(spec))
        problems.push(`${rel}: prompts (${spec}) outside cli/ (only cli/ talks)`);
      continue;
    }
    const target = relative(src, resolve(dirname(file), spec.replace(/\.js$/, '.ts')))
      .split(sep)
      .join('/');
    edges.add(target);
    const folderProblem = opsFolderProblem(rel, target);
    if (folderProblem !== null) problems.push(folderProblem);
    const targetUnit = opsUnit(target);
    if (unit?.kind === 'step' && targetUnit?.kind === 'step' && targetUnit.name !== unit.name)
      stepGraph.get(unit.name).add(targetUnit.name);
    const them = classify(target);
    const theirDir = target.split('/')[0];
    if (me.layer === 'adapter' && ADAPTER_DIRS.includes(theirDir) && theirDir !== me.group) {
      problems.push(
        `${rel}: adapter ${me.group}/ imports ${target} (adapters never import each other)`,
      );
    } else if (typeOnly && RANK[them.layer] <= RANK.pure) continue;
    else if (RANK[them.layer] > RANK[me.layer]) {
      problems.push(
        `${rel}: ${me.layer} imports ${them.layer} module ${target} (imports point down only)`,
      );
    }
  }
}

for (const cycle of cyclesOf(graph)) problems.push(`import cycle: ${cycle.join(' -> ')}`);
for (const cycle of cyclesOf(stepGraph))
  problems.push(
    `step folder cycle: ${cycle.map((s) => `ops/${s}/`).join(' -> ')} (step folders import each other in no cycle)`,
  );

if (problems.length > 0) {
  console.error(
    `lint-layers: ${problems.length} problem(s)\n` + problems.map((p) => `  ${p}`).join('\n'),
  );
  process.exit(1);
}
console.log('lint-layers: ok');

/**
 * One cycle through each strongly connected component of more than one file (or a file that
 * imports itself), as the files in import order, the first repeated at the end (Tarjan's algorithm).
 */
function cyclesOf(edges) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  let next = 0;
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!edges.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) !== index.get(v)) return;
    const component = new Set();
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      component.add(w);
    } while (w !== v);
    if (component.size > 1 || edges.get(v).has(v)) found.push(pathWithin(edges, component, v));
  };
  for (const v of [...edges.keys()].sort()) if (!index.has(v)) visit(v);
  return found;
}

/** A shortest cycle from `start` back to itself inside `component` (breadth first). */
function pathWithin(edges, component, start) {
  const from = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift();
    for (const w of [...edges.get(v)].sort()) {
      if (!component.has(w)) continue;
      if (w === start) {
        const path = [start];
        for (let at = v; at !== start; at = from.get(at)) path.splice(1, 0, at);
        return [...path, start];
      }
      if (!from.has(w)) {
        from.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}
