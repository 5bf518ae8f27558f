import type { LoadedPlugin } from '../plugin/loaded-plugin.js';
import { normalizeCapabilities, type Capabilities } from '../plugin/capabilities.js';
import { buildSurface } from '../plugin/surface.js';
import type { ScanOptions, TreeScan } from './fingerprint-cache.js';
import {
  isEntryFor,
  writeDocumentsCache,
  type DocumentsCache,
  type PluginDocuments,
} from './plugin-documents-cache.js';
import { readPluginDir } from './read-plugin.js';
import { readUnchanged } from './read-unchanged.js';
import type { PluginRecord } from './state/state-schema.js';
import type { StorePaths } from './store-paths.js';
import { checkInstalledTrees, type TreeCheck } from './tree-check.js';
import { createdProblemIn } from './tree-status.js';

/*
 * The documents of the plugins runnable-plugins.ts binds: read from their trees, or from the
 * documents cache while a tree keeps the fingerprint and layout they were read under; a linked
 * plugin's read afresh, and a plugin that created files in its folder read afresh and checked.
 */

/**
 * A plugin's documents, or why they could not be read, or the created file that left it out, or
 * (a linked directory) the surface it has now, which its consent does not hold.
 */
export type PluginRead =
  PluginDocuments | { error: string } | { tampered: string } | { unconsented: string };

/**
 * plugins.md D15: a linked plugin's documents, read from its directory now (not cached: it is
 * being edited), kept only when the surface they make is the one consented to (Q4).
 */
export async function readLinked(record: PluginRecord): Promise<PluginRead> {
  let plugin: LoadedPlugin;
  try {
    plugin = await readPluginDir(record.path, { fallbackName: record.name, id: record.id });
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
  const now = buildSurface(plugin).surfaceHash;
  if (now !== record.consent?.surfaceHash) return { unconsented: now };
  // Its declared capabilities confine it as they do a copy (security.md Z4).
  return readOf(plugin);
}

/**
 * docs/design/decisions.md#plugins-and-marketplaces: the documents of each plugin whose installed
 * files are intact but which has created files in its folder, read afresh (not cached: its tree
 * keeps changing) and kept only when no created file changes what runs (plugin/created-files.ts)
 * and the tree is still so after the read.
 */
export async function readCreated(
  paths: StorePaths,
  runnable: readonly PluginRecord[],
  checks: ReadonlyMap<string, TreeCheck>,
  out: Map<string, PluginRead>,
  options: ScanOptions,
): Promise<void> {
  const records = runnable.filter((r) => checks.get(r.path)?.status === 'created');
  if (records.length === 0) return;
  const reads = await Promise.all(records.map((record) => readWithCreated(record, checks)));
  const trees = records.map((record) => ({ root: record.path, fingerprint: record.fingerprint }));
  const after = await checkInstalledTrees(paths, trees, options);
  records.forEach((record, i) => {
    const still = after.get(record.path);
    const same =
      still?.status === 'created' &&
      JSON.stringify(still.created) === JSON.stringify(createdOf(checks.get(record.path)));
    out.set(record.id, same ? reads[i]! : { tampered: 'its files changed while it was read' });
  });
}

function createdOf(check: TreeCheck | undefined): string[] {
  return check?.status === 'created' ? check.created : [];
}

async function readWithCreated(
  record: PluginRecord,
  checks: ReadonlyMap<string, TreeCheck>,
): Promise<PluginRead> {
  let plugin: LoadedPlugin;
  try {
    plugin = await readPluginDir(record.path, { fallbackName: record.name, id: record.id });
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
  const problem = createdProblemIn(plugin, createdOf(checks.get(record.path)));
  if (problem !== null) return { tampered: problem };
  return readOf(plugin);
}

/**
 * The documents of every plugin whose tree has its recorded fingerprint: from the cache when it
 * holds them for that fingerprint and layout, else read (and cached when the tree held still).
 * `partial`: `runnable` is not every runnable plugin, so the cache keeps the entries of others.
 */
export async function documentsOf(
  paths: StorePaths,
  runnable: readonly PluginRecord[],
  scans: ReadonlyMap<string, TreeScan>,
  cached: DocumentsCache,
  partial: boolean,
  options: ScanOptions,
): Promise<Map<string, PluginRead>> {
  const out = new Map<string, PluginRead>();
  const hits: DocumentsCache = new Map();
  const misses = new Map<string, PluginRecord>();
  for (const record of runnable) {
    const scan = scans.get(record.path) ?? null;
    if (scan?.fingerprint !== record.fingerprint) continue;
    const key = { path: record.path, name: record.name, ...keyOf(scan) };
    const entry = cached.get(record.id);
    if (entry !== undefined && isEntryFor(entry, key)) {
      out.set(record.id, entry.documents);
      hits.set(record.id, entry);
    } else misses.set(record.path, record);
  }
  const ours = new Set(runnable.map((record) => record.id));
  const kept = partial ? [...cached].filter(([id]) => !ours.has(id)) : [];
  const known = hits.size + kept.length;
  if (misses.size === 0 && known === cached.size) return out;
  const read = (path: string): Promise<PluginRead> => readDocuments(misses.get(path)!);
  const reads =
    misses.size === 0 ? [] : await readUnchanged(paths, [...misses.keys()], read, options);
  const next = new Map([...kept, ...hits]);
  for (const [path, { value, scan }] of reads) {
    const record = misses.get(path)!;
    out.set(record.id, value);
    if (!('documents' in value) || scan === null || scan.fingerprint !== record.fingerprint)
      continue;
    next.set(record.id, { path, name: record.name, ...keyOf(scan), documents: value });
  }
  // Unchanged when nothing new was kept and nothing cached was left out.
  if (next.size !== known || known !== cached.size) await writeDocumentsCache(paths, next);
  return out;
}

/** What of a tree's scan a documents entry is keyed on. */
function keyOf({ fingerprint, layout }: TreeScan): TreeScan {
  return { fingerprint, layout };
}

async function readDocuments(record: PluginRecord): Promise<PluginRead> {
  try {
    const plugin = await readPluginDir(record.path, { fallbackName: record.name, id: record.id });
    return readOf(plugin);
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

/** Z1: the manifest's declared capabilities, canonical, or null. */
function declaredOf(plugin: LoadedPlugin): Capabilities | null {
  const declared = plugin.manifest?.capabilities;
  return declared === undefined ? null : normalizeCapabilities(declared);
}

/** A plugin's documents that hold a configuration, as a documents entry keeps them. */
function documentsIn(plugin: LoadedPlugin): PluginDocuments['documents'] {
  return plugin.documents.flatMap(({ source, config }) =>
    config === null ? [] : [{ source, config }],
  );
}

/** What a plugin read from its tree gives: its documents, diagnostics and declared capabilities. */
function readOf(plugin: LoadedPlugin): PluginRead {
  return {
    documents: documentsIn(plugin),
    diagnostics: plugin.diagnostics,
    capabilities: declaredOf(plugin),
  };
}
