/**
 * The files of a sparse layout (docs/reference/registry-format.md) for an index, as path (relative
 * to the registry directory) to text. A pure function of the index: building twice gives the same
 * bytes, so a writer can skip every file whose bytes did not change (incremental builds).
 */
import { createHash } from 'node:crypto';
import type { RegistryIndex } from '../indexes/index-schema.js';
import { summarizePlugin } from '../indexes/index-summary.js';
import {
  pluginDocumentPath,
  ROOT_FILE,
  searchShardPath,
  shardOf,
  SPARSE_FORMAT_VERSION,
  type SearchEntry,
  type SearchManifest,
  type SparseRoot,
} from './sparse-format.js';

export const PLUGINS_DIR = 'plugins/';
export const SEARCH_DIR = 'search/';
export const SEARCH_MANIFEST = 'index.json';

const text = (value: unknown): string => `${JSON.stringify(value)}\n`;

/** Every file of the layout, in a stable order: plugin documents, search shards, manifest, root. */
export function sparseDocuments(index: RegistryIndex): Map<string, string> {
  const files = new Map<string, string>();
  const shards = new Map<string, SearchEntry[]>();
  const names = Object.keys(index.plugins).sort();
  for (const name of names) {
    const plugin = index.plugins[name];
    if (plugin === undefined) continue;
    files.set(`${PLUGINS_DIR}${pluginDocumentPath(name)}`, text({ name, ...plugin }));
    const entry = summarizePlugin(name, plugin);
    if (entry === null) continue;
    const key = shardOf(name);
    const list = shards.get(key) ?? [];
    list.push(entry);
    shards.set(key, list);
  }
  const manifest: SearchManifest = { formatVersion: SPARSE_FORMAT_VERSION, shards: [] };
  for (const key of [...shards.keys()].sort()) {
    for (const page of searchPages(key, shards.get(key) ?? [])) {
      files.set(`${SEARCH_DIR}${page.path}`, page.body);
      manifest.shards.push({ key, path: page.path, rows: page.rows, hash: hashOf(page.body) });
    }
  }
  files.set(`${SEARCH_DIR}${SEARCH_MANIFEST}`, text(manifest));
  const root: SparseRoot = {
    formatVersion: SPARSE_FORMAT_VERSION,
    layout: 'sparse',
    ...(index.name === undefined ? {} : { name: index.name }),
    ...(index.description === undefined ? {} : { description: index.description }),
    plugins: PLUGINS_DIR,
    search: `${SEARCH_DIR}${SEARCH_MANIFEST}`,
    pluginCount: names.length,
  };
  files.set(ROOT_FILE, text(root));
  return files;
}

/** A search page holds entries up to about this many bytes (one larger entry gets a page alone). */
export const SEARCH_PAGE_BYTES = 512 * 1024;

/**
 * The pages of one search shard (N8): its entries in name order, a new page whenever the next
 * entry would take the page past SEARCH_PAGE_BYTES, so a shard of a crowded prefix (a million
 * `claude-*` plugins) stays within the per-document cap. The first page is `<key>.json`, the
 * next `<key>-2.json`, and so on.
 */
export function searchPages(
  key: string,
  entries: readonly SearchEntry[],
): Array<{ path: string; body: string; rows: number }> {
  const pages: Array<{ path: string; body: string; rows: number }> = [];
  let current: string[] = [];
  let size = 0;
  const flush = (): void => {
    const n = pages.length + 1;
    const path = n === 1 ? searchShardPath(key) : searchShardPath(`${key}-${n}`);
    const body = `{"formatVersion":${SPARSE_FORMAT_VERSION},"plugins":[${current.join(',')}]}\n`;
    pages.push({ path, body, rows: current.length });
    current = [];
    size = 0;
  };
  for (const entry of entries) {
    const json = JSON.stringify(entry);
    if (current.length > 0 && size + json.length > SEARCH_PAGE_BYTES) flush();
    current.push(json);
    size += json.length + 1;
  }
  if (current.length > 0) flush();
  return pages;
}

/** `sha256-<base64url>` of a text's UTF-8 bytes: a search shard's hash in the manifest. */
export function hashOf(body: string | Buffer): string {
  return `sha256-${createHash('sha256').update(body).digest('base64url')}`;
}
