import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isPlainObject } from '../../../json/describe-value.js';
import type { ManifestHooksField } from '../../../plugin/manifest.js';
import { inlineDocument } from '../../../plugin/resolve-hooks.js';

/*
 * plugins.md G14: a strict marketplace entry's `hooks` add to those of the plugin's own manifest,
 * as Claude Code merges an entry's components into the plugin's. The merged field is written
 * into the staged copy's manifest, so review, the surface and every host read one manifest.
 */

/** The merged `hooks`, or null when the two cannot be held by one manifest field. */
export function mergeHooksFields(
  own: ManifestHooksField | undefined,
  entry: ManifestHooksField,
): ManifestHooksField | null {
  if (own === undefined) return entry;
  const ownPaths = typeof own === 'string' ? [own] : Array.isArray(own) ? own : null;
  const entryPaths = typeof entry === 'string' ? [entry] : Array.isArray(entry) ? entry : null;
  if (ownPaths !== null && entryPaths !== null) return [...ownPaths, ...entryPaths];
  if (ownPaths !== null || entryPaths !== null) return null;
  return mergeEventMaps(own as Record<string, unknown>, entry as Record<string, unknown>);
}

/** Two inline objects (H3) as one bare event map: per event, the entry's groups after the own. */
function mergeEventMaps(
  own: Record<string, unknown>,
  entry: Record<string, unknown>,
): ManifestHooksField | null {
  const a = (inlineDocument(own) as { hooks: Record<string, unknown> }).hooks;
  const b = (inlineDocument(entry) as { hooks: Record<string, unknown> }).hooks;
  // A Map, then own properties: an event named `__proto__` stays an event, as JSON.parse keeps it.
  const merged = new Map<string, unknown>(Object.entries(a));
  for (const [event, groups] of Object.entries(b)) {
    const before = merged.get(event);
    if (before === undefined) merged.set(event, groups);
    else if (Array.isArray(before) && Array.isArray(groups))
      merged.set(event, [...before, ...groups]);
    else return null;
  }
  // A merged map that itself holds a `hooks` object would read as a whole document (H3).
  return isPlainObject(merged.get('hooks')) ? null : Object.fromEntries(merged);
}

/**
 * Rewrites `file` (below `dir`, the staged copy, which holds no symlink: copy-tree.ts) with the
 * entry's `hooks` merged into the file's own field: that file's, which is the one read (G5), not
 * the first manifest's, which may be another. Returns false, writing nothing, when the file is not
 * a JSON object (the plugin is then refused for its manifest, P4, by whoever reads it next) or the
 * two fields cannot be merged.
 */
export async function addManifestHooks(
  dir: string,
  file: string,
  entry: ManifestHooksField,
): Promise<boolean> {
  const path = join(dir, ...file.split('/'));
  let value: unknown;
  try {
    value = JSON.parse((await readFile(path, 'utf8')).replace(/^\uFEFF/, ''));
  } catch {
    return false;
  }
  if (!isPlainObject(value)) return false;
  // The manifest was read without errors (P4), so its own field has a manifest's shape.
  const hooks = mergeHooksFields(value['hooks'] as ManifestHooksField | undefined, entry);
  if (hooks === null) return false;
  // A new file renamed over the old name: never written through whatever that name is.
  const scratch = `${path}.${process.pid}.tmp`;
  await writeFile(scratch, `${JSON.stringify({ ...value, hooks }, null, 2)}\n`, { flag: 'wx' });
  await rename(scratch, path);
  return true;
}
