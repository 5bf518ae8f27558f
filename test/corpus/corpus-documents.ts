/**
 * Finds every hooks document of a corpus folder the way plugins.md section 2 declares them, kept
 * minimal (the real plugin loader lives in src/plugin/): H1 default `hooks/hooks.json`, H2 manifest
 * path strings and arrays, H3 inline objects, in each of `plugin.json`, `.claude-plugin/plugin.json`
 * and `claude-plugin/plugin.json` present, plus inline `hooks` of marketplace entries.
 */
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import { parseJson } from '../../src/json/parse-json.js';

export const MANIFESTS = ['plugin.json', '.claude-plugin/plugin.json', 'claude-plugin/plugin.json'];
const MARKETPLACES = [
  '.claude-plugin/marketplace.json',
  '.dev-marketplace/.claude-plugin/marketplace.json',
];

/** A hooks document to load: its value (or JSON text to parse) and where it came from. */
export type CorpusDocument =
  | { kind: 'file'; file: string; how: string }
  | { kind: 'inline'; file: string; value: unknown; how: string };

/** A declaration that cannot yield a document: it must come with a clear reason, never a crash. */
export interface Refusal {
  file: string;
  reason: string;
}

export interface FolderDocuments {
  documents: CorpusDocument[];
  refusals: Refusal[];
}

export function findDocuments(root: string): FolderDocuments {
  const out: FolderDocuments = { documents: [], refusals: [] };
  const seen = new Set<string>();
  const addFile = (file: string, how: string): void => {
    const key = realpathSync(file);
    if (seen.has(key)) return; // H2: a path naming a document again is loaded once
    seen.add(key);
    out.documents.push({ kind: 'file', file, how });
  };
  const defaultFile = join(root, 'hooks', 'hooks.json');
  if (existsSync(defaultFile)) addFile(defaultFile, 'H1 default hooks/hooks.json');
  for (const name of MANIFESTS) {
    const manifest = readJson(join(root, name), out.refusals);
    if (manifest === undefined || !isObject(manifest) || manifest.hooks === undefined) continue;
    const hooks = manifest.hooks;
    const file = join(root, name);
    if (
      typeof hooks === 'string' ||
      (Array.isArray(hooks) && hooks.every((p) => typeof p === 'string'))
    ) {
      for (const path of [hooks].flat() as string[])
        resolveManifestPath(root, path, file, out, addFile);
    } else if (isObject(hooks)) {
      const value = isObject(hooks.hooks) ? hooks : { hooks };
      out.documents.push({ kind: 'inline', file: `${file}#hooks`, value, how: 'H3 inline object' });
    } else {
      out.refusals.push({
        file,
        reason: 'manifest "hooks" is neither a path, a path array nor an object',
      });
    }
  }
  for (const name of MARKETPLACES) {
    const market = readJson(join(root, name), out.refusals);
    const plugins = isObject(market) && Array.isArray(market.plugins) ? market.plugins : [];
    plugins.forEach((entry: unknown, i) => {
      if (!isObject(entry) || !isObject(entry.hooks)) return;
      const value = isObject(entry.hooks.hooks) ? entry.hooks : { hooks: entry.hooks };
      out.documents.push({
        kind: 'inline',
        file: `${join(root, name)}#plugins[${i}].hooks`,
        value,
        how: 'marketplace inline',
      });
    });
  }
  return out;
}

/** H2: `./`-relative, not `./` itself, no `..`, inside the root; a directory means its hooks.json. */
function resolveManifestPath(
  root: string,
  path: string,
  manifest: string,
  out: FolderDocuments,
  addFile: (file: string, how: string) => void,
): void {
  const refuse = (why: string): void => {
    out.refusals.push({ file: manifest, reason: `hooks path ${JSON.stringify(path)} ${why}` });
  };
  if (!path.startsWith('./') || path === './' || isAbsolute(path))
    return refuse('must start with ./');
  if (path.split(/[\\/]/).includes('..')) return refuse('must not contain .. segments');
  let target = join(root, path);
  if (existsSync(target) && statSync(target).isDirectory()) target = join(target, 'hooks.json');
  if (!existsSync(target)) return refuse('names no file');
  if (relative(realpathSync(root), realpathSync(target)).startsWith('..'))
    return refuse('leaves the plugin root');
  addFile(target, `H2 manifest path ${path}`);
}

function readJson(file: string, refusals: Refusal[]): unknown {
  if (!existsSync(file)) return undefined;
  const parsed = parseJson(readFileSync(file, 'utf8'), file);
  if (parsed.ok) return parsed.value;
  refusals.push({
    file,
    reason: `invalid JSON at ${file}:${parsed.line}:${parsed.column}: ${parsed.message}`,
  });
  return undefined;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
