import { existsSync, lstatSync, type Stats } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import {
  fingerprintOf,
  readEntries,
  walkTree,
  type TreeEntry,
  type TreeFile,
  type TreeWalk,
} from './fingerprint.js';
import {
  cachedEntry,
  isRacy,
  layoutOf,
  readFingerprintCache,
  sameDirectoryStat,
  sameStat,
  statOf,
  writeShards,
  type CachedDirectory,
  type CachedFile,
  type CachedTree,
  type FingerprintCache,
} from './fingerprint-shards.js';
import type { StorePaths } from './store-paths.js';

/** What scanTreesCached found of one tree. */
export interface TreeScan {
  /** The Q6 fingerprint, exactly as fingerprintTree computes it. */
  fingerprint: string;
  /**
   * The tree's directories (relative paths, sorted) as JSON, which the fingerprint leaves out:
   * an empty directory can still change what readPluginDir reports.
   */
  layout: string;
}

/**
 * A tree scanTreesCached did not hash: it holds a file its installed list leaves out
 * (ScanOptions.listed), so its fingerprint cannot be the installed one.
 */
export interface UnlistedScan {
  fingerprint: null;
  layout: string;
}

/**
 * A tree whose root, or the directory holding it (`<plugins>/<id>`), is a symbolic link: hookpm
 * makes neither, so what it leads to is not the tree installed, whatever it holds (Q6).
 */
export interface LinkedScan {
  fingerprint: null;
  linked: true;
}

const LINKED: LinkedScan = { fingerprint: null, linked: true };

export interface ScanOptions {
  /** Milliseconds since the epoch, as file times are; default Date.now. */
  now?: () => number;
  /**
   * The files installed in `root` (installed-files.ts), or null when unknown; asked only of a tree
   * that has to be walked. A tree holding any other file is not hashed: files a plugin created
   * (a log it appends to at every event, a large download) cost nothing to scan.
   */
  listed?: (root: string) => ReadonlySet<string> | null;
}

const NO_TREE: CachedTree = { files: new Map(), fingerprint: null };

/**
 * Q6 scans of `roots` (a root missing or unreadable: null): each tree's fingerprint as
 * fingerprintTree computes it, and its layout (TreeScan; UnlistedScan for a tree holding a file
 * ScanOptions.listed leaves out; LinkedScan for a root or its holder that is a link), reading only
 * the files whose lstat (device, inode, size, mtime, ctime, and mode with its kind) differs from
 * the one cached with their hash in the roots' shards (fingerprintShardFile). A directory is read
 * unless the cache holds the tree's directory stats and each directory's lstat (device, inode,
 * mtime, ctime, mode) is still the cached one: adding, removing or renaming an entry of a directory
 * sets its mtime and ctime, and nothing sets a ctime back, so an unchanged directory stat (cached
 * only once older than RACY_MS, as file stats are) means its listing is the one cached; the files
 * are then lstat'd one by one as always, so an added, removed or changed file still counts. Each
 * shard is read once and written only when an entry of it changed; a missing or damaged shard is
 * recomputed and a failed write ignored. No lock: the last writer wins and every entry is checked
 * against the stat again. Entries of other roots in a rewritten shard are kept while those exist.
 * Never rejects.
 *
 * A stat only stands in for content that this cache says was hashed with that very stat: whoever
 * can write the cache file (the user) can also write the trees and the state, so the cache guards
 * against changed files (a stray edit, another tool), not against the user's own processes.
 */
export async function scanTreesCached(
  paths: StorePaths,
  roots: readonly string[],
  options: ScanOptions = {},
): Promise<Map<string, TreeScan | UnlistedScan | LinkedScan | null>> {
  const now = (options.now ?? Date.now)();
  const cache = readFingerprintCache(paths, roots);
  const next: FingerprintCache = new Map();
  const scans = new Map<string, TreeScan | UnlistedScan | LinkedScan | null>();
  const rehashes: Promise<void>[] = [];
  const changed = new Set<string>();
  for (const root of roots) {
    if (scans.has(root)) continue;
    const cached = cache.get(root) ?? NO_TREE;
    scans.set(root, null);
    // The common case at scale: no directory and no file changed, found without reading a
    // directory (engine.md X10). A root reached through a link its holder became (Q6) is found
    // unchanged only when it is the very directory cached, moved out with its files: the files
    // installed, watched as before (a change to one walks the tree, which finds the link); a copy
    // has other inodes.
    const unchanged = unchangedLayout(root, cached);
    if (unchanged !== null) {
      scans.set(root, { fingerprint: cached.fingerprint!, layout: unchanged });
      next.set(root, cached);
      continue;
    }
    // The one lstat this adds to a tree not found unchanged; the root's own is the walk's first.
    if (isLink(dirname(root))) {
      scans.set(root, LINKED);
      continue;
    }
    let walk: TreeWalk;
    const stats = new Map<string, Stats>();
    try {
      walk = walkTree(root, (path, info) => stats.set(path, info));
    } catch {
      if (cache.has(root)) changed.add(root);
      continue;
    }
    // walkTree reads through a root that is a link; its lstat, taken first, tells one.
    if (stats.get('')?.isSymbolicLink() === true) {
      scans.set(root, LINKED);
      continue;
    }
    const layout = layoutOf(walk.directories);
    const directories = directoriesOf(stats, now);
    // Next, done without a promise: every file as it was when its hash was cached.
    if (cached.fingerprint !== null && sameFiles(walk.files, cached.files)) {
      scans.set(root, { fingerprint: cached.fingerprint, layout });
      next.set(root, { ...cached, directories });
      if (!sameDirectories(cached.directories, directories)) changed.add(root);
      continue;
    }
    const listed = options.listed?.(root) ?? null;
    if (listed !== null && walk.files.some((file) => !listed.has(file.path))) {
      scans.set(root, { fingerprint: null, layout });
      if (cache.has(root)) next.set(root, cached);
      continue;
    }
    const rehash = rehashTree(root, walk.files, cached.files, now).then(
      (tree) => {
        scans.set(root, { fingerprint: tree.fingerprint, layout });
        const whole = tree.cached.fingerprint !== null;
        next.set(root, whole ? { ...tree.cached, directories } : tree.cached);
        if (tree.changed || (whole && !sameDirectories(cached.directories, directories)))
          changed.add(root);
      },
      () => {
        if (cache.has(root)) changed.add(root);
      },
    );
    rehashes.push(rehash);
  }
  await Promise.all(rehashes);
  if (changed.size === 0) return scans;
  const everyRoot = new Set([...cache.keys(), ...next.keys()]);
  writeShards(paths, changed, everyRoot, (root) =>
    scans.has(root) ? next.get(root) : existsSync(root) ? cache.get(root) : undefined,
  );
  return scans;
}

/** Whether `path` is a symbolic link (one that cannot be lstat'd is left to the walk to find). */
function isLink(path: string): boolean {
  try {
    return lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink() === true;
  } catch {
    return false;
  }
}

/**
 * The layout of `root` when the cache holds its fingerprint and directory stats and every
 * directory and every cached file still has its cached lstat (so the tree holds exactly the
 * cached files, as hashed), else null (then the tree is walked).
 */
function unchangedLayout(root: string, cached: CachedTree): string | null {
  if (cached.fingerprint === null || cached.directories === undefined) return null;
  const base = join(root);
  const at = (path: string): string => (path === '' ? base : `${base}${sep}${path}`);
  try {
    for (const [path, hit] of cached.directories) {
      const info = lstatSync(at(path), { throwIfNoEntry: false });
      if (info === undefined || !info.isDirectory() || !sameDirectoryStat(hit, info)) return null;
    }
    for (const [path, hit] of cached.files) {
      const info = lstatSync(at(path), { throwIfNoEntry: false });
      if (info === undefined || !sameStat(hit, info)) return null;
    }
  } catch {
    return null;
  }
  return layoutOf([...cached.directories.keys()].filter((path) => path !== ''));
}

/** The directory stats to cache: all of them, or none when one is racy (RACY_MS). */
function directoriesOf(
  stats: ReadonlyMap<string, Stats>,
  now: number,
): Map<string, CachedDirectory> | undefined {
  const out = new Map<string, CachedDirectory>();
  for (const [path, info] of stats) {
    if (isRacy(info, now)) return undefined;
    out.set(path, [info.dev, info.ino, info.mtimeMs, info.ctimeMs, info.mode]);
  }
  return out;
}

function sameDirectories(
  a: ReadonlyMap<string, CachedDirectory> | undefined,
  b: ReadonlyMap<string, CachedDirectory> | undefined,
): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (a.size !== b.size) return false;
  for (const [path, hit] of b) {
    const other = a.get(path);
    if (other === undefined || other.some((value, i) => value !== hit[i])) return false;
  }
  return true;
}

/** Whether `files` are exactly the cached files, each with the stat it was hashed with. */
function sameFiles(files: readonly TreeFile[], cached: ReadonlyMap<string, CachedFile>): boolean {
  if (files.length !== cached.size) return false;
  for (const file of files) if (!sameStat(cached.get(file.path), file.info)) return false;
  return true;
}

interface Rehashed {
  fingerprint: string;
  /** What to cache for the tree: every file hashed with a stat older than RACY_MS. */
  cached: CachedTree;
  /** Whether `cached` differs from what was cached for the tree. */
  changed: boolean;
}

/** The fingerprint of `files`, reading those whose stat is not the cached one. */
async function rehashTree(
  root: string,
  files: readonly TreeFile[],
  cached: ReadonlyMap<string, CachedFile>,
  now: number,
): Promise<Rehashed> {
  const entries: TreeEntry[] = [];
  const misses: TreeFile[] = [];
  for (const file of files) {
    const hit = cachedEntry(file, cached);
    if (hit !== null) entries.push(hit);
    else misses.push(file);
  }
  entries.push(...(await readEntries(root, misses)));
  const fingerprint = fingerprintOf(entries);
  const hashes = new Map(entries.map((entry) => [entry[0], entry[2]]));
  const kept = new Map<string, CachedFile>();
  for (const { path, info } of files)
    if (!isRacy(info, now)) kept.set(path, [...statOf(info), hashes.get(path)!]);
  return {
    fingerprint,
    cached: { files: kept, fingerprint: kept.size === files.length ? fingerprint : null },
    changed: misses.some((file) => !isRacy(file.info, now)) || kept.size !== cached.size,
  };
}
