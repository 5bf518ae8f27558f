/**
 * The sparse registry layout (docs/reference/registry-format.md, registry.md N6-N8): a small root
 * document, one document per plugin in folders by name prefix, and a search summary in shards by
 * the same prefix with a manifest of their hashes. Parsed once at the boundary, like index-schema.
 */
import { HookpmError } from '../../errors.js';
import { isPlainObject } from '../../json/describe-value.js';
import { PLUGIN_NAME_PATTERN } from '../../plugin/name.js';
import type { PluginSummary } from '../indexes/summary-row.js';

/** The root document's file name, beside (and preferred to) `index.json`. */
export const ROOT_FILE = 'registry.json';
export const SPARSE_FORMAT_VERSION = 1;

export interface SparseRoot {
  formatVersion: 1;
  layout: 'sparse';
  name?: string;
  description?: string;
  /** Folder of the plugin documents, relative to the root document (`plugins/`). */
  plugins: string;
  /** The search manifest, relative to the root document (`search/index.json`). */
  search: string;
  /** How many plugins the registry lists (what `registry add` and `registry list` show). */
  pluginCount: number;
}

/** One row of a search shard: what `hookpm search` shows of a plugin's latest version. */
export type SearchEntry = PluginSummary;

export interface SearchManifest {
  formatVersion: 1;
  /** One per non-empty shard: its key, its file (relative to the manifest), its rows and hash. */
  shards: Array<{ key: string; path: string; rows: number; hash: string }>;
}

export interface SearchShard {
  formatVersion: 1;
  plugins: SearchEntry[];
}

/**
 * The shard of a plugin name: its first two characters, `.`/`-` as `_`, a one-character name
 * padded with `_` (`guard` is `gu`, `a` is `a_`, `x-y` is `x_`). Always `[a-z0-9][a-z0-9_]`, so
 * at most 1,332 folders, each a safe path segment on every file system.
 */
export function shardOf(name: string): string {
  const two = `${name}_`.slice(0, 2);
  return two.replace(/[^a-z0-9]/g, '_');
}

/** A plugin document's path relative to the plugins folder: `<shard>/<name>.json`. */
export function pluginDocumentPath(name: string): string {
  return `${shardOf(name)}/${name}.json`;
}

/** A search shard's path relative to the search manifest's folder. */
export function searchShardPath(key: string): string {
  return `${key}.json`;
}

export function schemaError(where: string, field: string, message: string): HookpmError {
  return new HookpmError('E_REGISTRY_SCHEMA', `${where}: ${field} ${message}`, {
    file: where,
    field,
    hint: 'The registry serves a sparse layout hookpm cannot use; the cached copy, if any, is kept.',
  });
}

const RELATIVE = /^(?![/\\])(?!.*(?:^|\/)\.\.?(?:\/|$))[A-Za-z0-9._/-]+$/;

function relativePath(value: unknown, where: string, field: string): string {
  if (typeof value === 'string' && RELATIVE.test(value)) return value;
  throw schemaError(where, field, 'is not a relative path of [A-Za-z0-9._/-] without `.` or `..`');
}

/** N6: the root document, checked. E_REGISTRY_SCHEMA otherwise. */
export function parseRoot(value: unknown, where: string): SparseRoot {
  if (!isPlainObject(value)) throw schemaError(where, '', 'is not a JSON object');
  if (value['formatVersion'] !== SPARSE_FORMAT_VERSION)
    throw schemaError(where, 'formatVersion', `is not ${SPARSE_FORMAT_VERSION}`);
  if (value['layout'] !== 'sparse') throw schemaError(where, 'layout', 'is not "sparse"');
  const count = value['pluginCount'];
  // A safe integer: `1e300` is an integer to JavaScript, and would be shown as `1e+300 plugins`.
  if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < 0)
    throw schemaError(where, 'pluginCount', 'is not a non-negative integer');
  const plugins = relativePath(value['plugins'], where, 'plugins');
  const text = (key: string): string | undefined => {
    const v = value[key];
    if (v === undefined) return undefined;
    if (typeof v !== 'string') throw schemaError(where, key, 'is not a string');
    return v;
  };
  const name = text('name');
  const description = text('description');
  return {
    formatVersion: 1,
    layout: 'sparse',
    ...(name === undefined ? {} : { name }),
    ...(description === undefined ? {} : { description }),
    plugins: plugins.endsWith('/') ? plugins : `${plugins}/`,
    search: relativePath(value['search'], where, 'search'),
    pluginCount: count,
  };
}

/**
 * The longest search page path a manifest may give, in UTF-8 bytes (N8): the page's rows are
 * cached under that path as one file name (cache-sparse.ts, with its temporary name's suffix),
 * which a file system caps at 255 bytes. `registry build` writes `<key>.json` and `<key>-<n>.json`.
 */
export const SHARD_PATH_MAX = 200;

const HASH = /^sha256-[A-Za-z0-9_-]{43}$/;
const SHARD_KEY = /^[a-z0-9][a-z0-9_]$/;

/** N8: the search manifest, checked. */
export function parseSearchManifest(value: unknown, where: string): SearchManifest {
  if (!isPlainObject(value) || value['formatVersion'] !== SPARSE_FORMAT_VERSION)
    throw schemaError(where, 'formatVersion', `is not ${SPARSE_FORMAT_VERSION}`);
  const shards = value['shards'];
  if (!Array.isArray(shards)) throw schemaError(where, 'shards', 'is not an array');
  // Each page is listed once: a path listed again would be fetched again (and its rows shown
  // again) for every listing, so a manifest could make one search ask for one page without end.
  const seen = new Map<string, number>();
  return {
    formatVersion: 1,
    shards: shards.map((s: unknown, i) => {
      const field = `shards.${i}`;
      if (!isPlainObject(s)) throw schemaError(where, field, 'is not an object');
      const { key, rows, hash } = s;
      if (typeof key !== 'string' || !SHARD_KEY.test(key))
        throw schemaError(where, `${field}.key`, 'is not a shard key ([a-z0-9][a-z0-9_])');
      if (typeof rows !== 'number' || !Number.isInteger(rows) || rows < 0)
        throw schemaError(where, `${field}.rows`, 'is not a non-negative integer');
      if (typeof hash !== 'string' || !HASH.test(hash))
        throw schemaError(where, `${field}.hash`, 'is not `sha256-<base64url>`');
      const path = relativePath(s['path'], where, `${field}.path`);
      if (Buffer.byteLength(path) > SHARD_PATH_MAX)
        throw schemaError(where, `${field}.path`, `is longer than ${SHARD_PATH_MAX} bytes`);
      const first = seen.get(path);
      if (first !== undefined)
        throw schemaError(where, `${field}.path`, `repeats the path of shards.${first}`);
      seen.set(path, i);
      return { key, path, rows, hash };
    }),
  };
}

const strings = (v: unknown): v is string[] =>
  Array.isArray(v) && v.every((x) => typeof x === 'string');

/** N8: a search shard, checked; entries with a bad name or shape are a schema error. */
export function parseSearchShard(value: unknown, where: string): SearchShard {
  if (!isPlainObject(value) || value['formatVersion'] !== SPARSE_FORMAT_VERSION)
    throw schemaError(where, 'formatVersion', `is not ${SPARSE_FORMAT_VERSION}`);
  const plugins = value['plugins'];
  if (!Array.isArray(plugins)) throw schemaError(where, 'plugins', 'is not an array');
  return {
    formatVersion: 1,
    plugins: plugins.map((p: unknown, i) => {
      const ok =
        isPlainObject(p) &&
        typeof p['name'] === 'string' &&
        PLUGIN_NAME_PATTERN.test(p['name']) &&
        typeof p['description'] === 'string' &&
        strings(p['keywords']) &&
        typeof p['version'] === 'string' &&
        strings(p['events']) &&
        (p['deprecated'] === null || typeof p['deprecated'] === 'string');
      if (!ok) throw schemaError(where, `plugins.${i}`, 'is not a search entry');
      return p as unknown as SearchEntry;
    }),
  };
}
