import type { Diagnostic } from '../hooks/diagnostic.js';
import type { HooksConfig } from '../hooks/types.js';
import type { Capabilities } from '../plugin/capabilities.js';
import { readPackageVersion } from '../io/package-root.js';
import { readCacheFile, writeCacheFile } from './cache-file.js';
import { pluginDocumentsCacheFile } from './paths.js';
import type { StorePaths } from './store-paths.js';

/** What a snapshot takes of a plugin directory (readPluginDir): its loaded documents, diagnostics. */
export interface PluginDocuments {
  documents: { source: string; config: HooksConfig }[];
  diagnostics: Diagnostic[];
  /** Z1: the manifest's declared capabilities, canonical; null or absent: none declared. */
  capabilities?: Capabilities | null;
}

/**
 * What the documents were read from. An entry stands for its plugin only while all of it is the
 * same: the tree (path), the name readPluginDir fell back on, the Q6 fingerprint of the content
 * they were read from and the tree's directories (fingerprint-cache.ts TreeScan).
 */
export interface DocumentsKey {
  path: string;
  name: string;
  fingerprint: string;
  layout: string;
}

export interface DocumentsEntry extends DocumentsKey {
  documents: PluginDocuments;
}

/** Per plugin id. */
export type DocumentsCache = Map<string, DocumentsEntry>;

/**
 * The file holds the results of this version of hookpm only: another version may read plugins
 * differently, so its file counts as missing.
 */
function formatOf(): string | null {
  try {
    return `hookpm-plugin-documents/3 hookpm@${readPackageVersion()}`;
  } catch {
    return null;
  }
}

/** `<cache>/plugin-documents.json`; empty when missing or damaged (readCacheFile). Never throws. */
export function readDocumentsCache(paths: StorePaths): DocumentsCache {
  const out: DocumentsCache = new Map();
  const format = formatOf();
  if (format === null) return out;
  const value = readCacheFile(pluginDocumentsCacheFile(paths), format);
  if (!Array.isArray(value)) return out;
  for (const item of value)
    if (Array.isArray(item) && typeof item[0] === 'string' && isEntry(item[1]))
      out.set(item[0], item[1]);
  return out;
}

/** Replaces the cache file with `entries`; a failed write is ignored. Never rejects. */
export async function writeDocumentsCache(
  paths: StorePaths,
  entries: DocumentsCache,
): Promise<void> {
  const format = formatOf();
  if (format !== null) await writeCacheFile(pluginDocumentsCacheFile(paths), format, [...entries]);
}

/** Whether `entry` was read from exactly `key`, so that its documents are the plugin's now. */
export function isEntryFor(entry: DocumentsEntry, key: DocumentsKey): boolean {
  return (
    entry.path === key.path &&
    entry.name === key.name &&
    entry.fingerprint === key.fingerprint &&
    entry.layout === key.layout
  );
}

/**
 * The shape written by writeDocumentsCache. The configurations inside are this version's own
 * output, checked by the file's hash, so they are not validated again here.
 */
function isEntry(value: unknown): value is DocumentsEntry {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Record<string, unknown>;
  const keys = ['path', 'name', 'fingerprint', 'layout'] as const;
  if (!keys.every((key) => typeof entry[key] === 'string')) return false;
  const documents = entry.documents as Record<string, unknown> | null | undefined;
  return (
    typeof documents === 'object' &&
    documents !== null &&
    Array.isArray(documents.documents) &&
    documents.documents.every(
      (d: { source?: unknown; config?: unknown } | null) =>
        typeof d?.source === 'string' && typeof d.config === 'object' && d.config !== null,
    ) &&
    Array.isArray(documents.diagnostics) &&
    documents.diagnostics.every(
      (d: { code?: unknown; message?: unknown } | null) =>
        typeof d?.code === 'string' && typeof d.message === 'string',
    )
  );
}
