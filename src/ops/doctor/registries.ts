import { readRegularFile } from '../../io/read-regular-file.js';
import { fileURLToPath } from 'node:url';
import { isHookpmError } from '../../errors.js';
import { parseJson } from '../../json/parse-json.js';
import {
  INDEX_CACHE_MAX_BYTES,
  INDEX_CACHE_VERSION,
  indexCacheFile,
} from '../../registry/indexes/cache-index.js';
import { INDEX_MAX_BYTES } from '../../registry/http/fetch-options.js';
import { parseIndex } from '../../registry/indexes/index-schema.js';
import type { LoadIndexOptions } from '../../registry/indexes/load-index.js';
import { indexUrlOf, isSparseRootUrl, showLocation } from '../../registry/registry-location.js';
import { indexCacheDir } from '../../store/paths.js';
import type { StorePaths } from '../../store/store-paths.js';
import type { RegistryRecord, State } from '../../store/state/state-schema.js';
import { okCheck, plural, problem, type DoctorCheck } from './check.js';
import { shellWord } from '../../text/shell-word.js';
import { clip } from '../../text/clip.js';
import { effectiveRegistries, type RegistryEntry } from '../steps/catalogs/defaults.js';

export interface RegistryCheckOptions {
  /** Fetch each network index now (with the normal client); otherwise no network access. */
  online: boolean;
  /** The built-in registries (default: `examples`). */
  defaults?: Readonly<Record<string, RegistryRecord>>;
  fetch?: LoadIndexOptions['fetch'];
}

type Outcome = { ok: true; plugins: number } | { ok: false; reason: string; hint: string | null };

/**
 * docs/reference/rules/registry.md#registry-kinds, N4, I2: every registry in effect. A local index
 * (a directory or `file:`) is read from disk and checked; a network index or a marketplace must
 * have a cached copy that parses (a warning otherwise, fix `hookpm registry update <name>`); with
 * `online`, a network index is also fetched and checked, without replacing the cached copy. npm has
 * no index to check.
 */
export async function checkRegistries(
  paths: StorePaths,
  state: State,
  opts: RegistryCheckOptions,
): Promise<DoctorCheck[]> {
  const entries = effectiveRegistries(state, opts.defaults);
  return Promise.all(entries.map((entry) => checkRegistry(paths, entry, opts)));
}

async function checkRegistry(
  paths: StorePaths,
  entry: RegistryEntry,
  opts: RegistryCheckOptions,
): Promise<DoctorCheck> {
  const name = `registry:${entry.name}`;
  // A location in a damaged state can be any length: the report quotes its head.
  const where = clip(showLocation(entry.record.location));
  if (entry.record.kind === 'npm')
    return okCheck(
      name,
      `npm registry: package documents are fetched when needed; there is no index to check`,
    );
  if (entry.record.kind === 'marketplace') return checkMarketplace(paths, entry, name, where);
  if (isSparseRootUrl(entry.record.location))
    return (await import('./sparse-registry-check.js')).checkSparseRegistry(
      paths,
      entry,
      name,
      where,
    );
  const url = entry.record.kind === 'index' ? indexUrlOf(entry.record.location) : null;
  if (url !== null && url.startsWith('file:')) {
    const read = await fetchIndex(url, opts);
    if (read.ok)
      return okCheck(
        name,
        `${fileURLToPath(url)} is a valid index (${plural(read.plugins, 'plugin')})`,
      );
    const fix = entry.builtin
      ? `Build it (\`hookpm registry build <plugins-dir> --out ${shellWord(fileURLToPath(new URL('.', url)))}\`) or remove the registry: \`hookpm registry remove ${entry.name}\``
      : `Check it with \`hookpm validate ${shellWord(fileURLToPath(new URL('.', url)))}\`, or remove the registry: \`hookpm registry remove ${entry.name}\``;
    return problem(name, 'warning', `the index of ${entry.name} cannot be used: ${read.reason}`, {
      code: 'registry_index_invalid',
      fix,
    });
  }
  const update = `hookpm registry update ${entry.name}`;
  const cached = await readCache(indexCacheFile(indexCacheDir(paths), entry.name), url);
  const online = opts.online && url !== null ? await fetchIndex(url, opts) : null;
  if (online !== null && !online.ok) {
    return problem(name, 'warning', `${where}: the index cannot be fetched: ${online.reason}`, {
      code: 'registry_unreachable',
      fix: online.hint ?? `Check the location and the network, then \`${update}\``,
    });
  }
  const fetched = online === null ? '' : `; fetched now: ${plural(online.plugins, 'plugin')}`;
  if (!cached.ok) {
    return problem(name, 'warning', `${where}: ${cached.reason}${fetched}`, {
      code: 'registry_cache_invalid',
      fix: update,
    });
  }
  return okCheck(
    name,
    `${where}: cached index valid (${plural(cached.plugins, 'plugin')})${fetched}`,
  );
}

/** Reads and checks the index at `url` as installs would, without touching the cache. */
async function fetchIndex(url: string, opts: RegistryCheckOptions): Promise<Outcome> {
  try {
    const { fetchBytes } = await import('../../registry/http/http.js');
    const result = await fetchBytes(url, {
      ...opts.fetch,
      purpose: 'index',
      maxBytes: INDEX_MAX_BYTES,
    });
    if (result.status === 304) return { ok: false, reason: 'unexpected 304 answer', hint: null };
    return checkIndexText(result.body.toString('utf8'), showLocation(url));
  } catch (error) {
    if (!isHookpmError(error)) throw error;
    return { ok: false, reason: `${error.code}: ${error.message}`, hint: error.hint ?? null };
  }
}

function checkIndexText(text: string, where: string): Outcome {
  const json = parseJson(text, where);
  if (!json.ok)
    return {
      ok: false,
      reason: `${where} is not JSON (${json.message} at ${json.line}:${json.column})`,
      hint: null,
    };
  try {
    return { ok: true, plugins: Object.keys(parseIndex(json.value, where).plugins).length };
  } catch (error) {
    if (!isHookpmError(error)) throw error;
    return { ok: false, reason: error.message, hint: null };
  }
}

/** The cached copy (registry/indexes/cache-index.ts format): present, of this URL (when known), and a valid index. */
async function readCache(file: string, url: string | null): Promise<Outcome> {
  let bytes: Buffer | null;
  try {
    bytes = readRegularFile(file, { maxBytes: INDEX_CACHE_MAX_BYTES });
  } catch {
    bytes = null;
  }
  if (bytes === null) return { ok: false, reason: `no cached index (${file})`, hint: null };
  const newline = bytes.indexOf(10);
  const head = newline === -1 ? null : parseOrNull(bytes.toString('utf8', 0, newline));
  const envelope =
    typeof head === 'object' && head !== null ? (head as Record<string, unknown>) : null;
  if (envelope === null || envelope['cacheVersion'] !== INDEX_CACHE_VERSION)
    return {
      ok: false,
      reason: `the cached index ${file} is unreadable (truncated or of another format)`,
      hint: null,
    };
  if (url !== null && envelope['url'] !== url)
    return {
      ok: false,
      reason: `the cached index ${file} is of another location, so it is not used`,
      hint: null,
    };
  const checked = checkIndexText(bytes.toString('utf8', newline + 1), file);
  return checked.ok
    ? checked
    : { ...checked, reason: `the cached index is invalid: ${checked.reason}` };
}

function parseOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** A marketplace's catalog is built by hookpm (marketplace-catalog.ts): its cached copy must read back. */
async function checkMarketplace(
  paths: StorePaths,
  entry: RegistryEntry,
  name: string,
  where: string,
): Promise<DoctorCheck> {
  const { marketplaceCacheKey } = await import('../steps/catalogs/marketplace-catalog.js');
  const { readCachedHead } = await import('../../registry/indexes/cache-index.js');
  const key = marketplaceCacheKey(entry.record.location);
  const head = await readCachedHead(indexCacheDir(paths), entry.name, key);
  if (head !== null)
    return okCheck(
      name,
      `${where}: cached marketplace catalog (${plural(head.summary.length, 'plugin')})`,
    );
  return problem(name, 'warning', `${where}: no readable cached catalog of this marketplace`, {
    code: 'registry_cache_invalid',
    fix: `hookpm registry update ${entry.name}`,
  });
}
