import { lstatSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ScanOptions, TreeScan } from './fingerprint-cache.js';
import {
  cachedEntry,
  isRacy,
  layoutOf,
  readFingerprintCache,
  statOf,
  type CachedFile,
} from './fingerprint-shards.js';
import { fingerprintOf, walkTree, type TreeEntry, type TreeFile } from './fingerprint.js';
import type { StorePaths } from './store-paths.js';

export interface ReadUnchanged<T> {
  value: T;
  /**
   * The tree that `read` saw, when it provably held still: null when it may have changed while
   * `read` ran, or when that cannot be told (see readUnchanged).
   */
  scan: TreeScan | null;
}

/**
 * Runs `read(root)` for each root and says which tree it read: the root, every directory and
 * every file are lstat-ed before and after, and the scan is given only when the two agree, none
 * of it changed within the racy window (fingerprint-shards.ts RACY_MS), and the fingerprint cache
 * holds a hash taken with exactly each file's stat. Then nothing in the tree was created,
 * removed, written or chmodded while `read` ran (each would have moved a ctime), and the
 * fingerprint is that of the content `read` saw: a result may be cached under it. `read` must not
 * reject.
 */
export async function readUnchanged<T>(
  paths: StorePaths,
  roots: readonly string[],
  read: (root: string) => Promise<T>,
  options: ScanOptions = {},
): Promise<Map<string, ReadUnchanged<T>>> {
  const now = (options.now ?? Date.now)();
  const cache = readFingerprintCache(paths, roots);
  const out = new Map<string, ReadUnchanged<T>>();
  await Promise.all(
    roots.map(async (root) => {
      const before = statTree(root, now);
      const value = await read(root);
      const after = statTree(root, now);
      const held = before !== null && after !== null && before.stats === after.stats;
      out.set(root, { value, scan: held ? scanOf(after, cache.get(root)?.files) : null });
    }),
  );
  return out;
}

interface TreeStat {
  files: TreeFile[];
  directories: string[];
  /** The lstat of everything in the tree, as text. */
  stats: string;
}

/** null when the tree cannot be walked or changed within the racy window. */
function statTree(root: string, now: number): TreeStat | null {
  try {
    const rootInfo = statSync(root);
    const { files, directories } = walkTree(root);
    const all: TreeFile[] = [{ path: '', info: rootInfo }, ...files];
    for (const path of directories) all.push({ path, info: lstatSync(join(root, path)) });
    if (all.some(({ info }) => isRacy(info, now))) return null;
    const stats = JSON.stringify(all.map(({ path, info }) => [path, ...statOf(info)]));
    return { files, directories, stats };
  } catch {
    return null;
  }
}

function scanOf(
  tree: TreeStat,
  cached: ReadonlyMap<string, CachedFile> | undefined,
): TreeScan | null {
  const entries: TreeEntry[] = [];
  for (const file of tree.files) {
    const entry = cachedEntry(file, cached);
    if (entry === null) return null;
    entries.push(entry);
  }
  return { fingerprint: fingerprintOf(entries), layout: layoutOf(tree.directories) };
}
