import type { Stats } from 'node:fs';
import { join } from 'node:path';
import { fnv1a } from '../text/fnv1a.js';
import { readShard, writeShard } from './cache-shard.js';
import { entryOf, type TreeEntry, type TreeFile } from './fingerprint.js';
import { fingerprintCacheDir } from './paths.js';
import type { StorePaths } from './store-paths.js';

/*
 * The fingerprint cache's files (fingerprint-cache.ts scans with them): 256 shards of JSON, each
 * mapping the roots it holds to their files' stats and hashes, and the stat comparisons that say
 * whether a cached hash or directory listing still stands.
 */

/**
 * git's racy-clean rule (https://git-scm.com/docs/racy-git): a stat stands for content only once
 * its times are older than the clock's tick. Every write sets ctime to the time of the write,
 * which no call can set back (utimes sets mtime and atime, and ctime to now), so a file written
 * after its hash was cached has a later ctime than the cached one, unless the two writes fell in
 * the same tick (or the clock was set back). A file changed less than this long before the scan
 * is hashed and not cached, so every cached stat is older than any write to come.
 */
const RACY_MS = 2000;
const FORMAT = 'hookpm-fingerprints/3';

/**
 * The shard of the cache that holds `root`'s entry, with the other roots of its shard:
 * `<cache>/fingerprints/<first two hex digits of fnv1a of the root>.json`, one of 256. Checking a
 * few trees reads and writes their shards only (about 1/256 of the cache each, engine.md X10),
 * and a check of every tree (`list`, a new pin) reads at most 256 files.
 */
export function fingerprintShardFile(paths: StorePaths, root: string): string {
  return join(fingerprintCacheDir(paths), `${fnv1a(root).slice(0, 2)}.json`);
}

/** The lstat fields that must all match for the hash to be reused, then the content hash. */
export type CachedFile = [
  dev: number,
  ino: number,
  size: number,
  mtimeMs: number,
  ctimeMs: number,
  mode: number,
  sha256: string,
];
/** The lstat fields of a directory that must all match for its listing to be reused. */
export type CachedDirectory = [
  dev: number,
  ino: number,
  mtimeMs: number,
  ctimeMs: number,
  mode: number,
];
/**
 * A tree's cached files by relative path, and the fingerprint of exactly those (when it is); and,
 * when every directory of the tree (`''`: the root) had a stat older than RACY_MS as it was read,
 * those stats (`directories`), which let a scan skip reading the directories (scanTreesCached).
 */
export interface CachedTree {
  files: ReadonlyMap<string, CachedFile>;
  fingerprint: string | null;
  directories?: ReadonlyMap<string, CachedDirectory>;
}
/** Per root. */
export type FingerprintCache = Map<string, CachedTree>;

/**
 * Writes the shard of each root in `changed`, holding every root of `roots` in that shard that
 * `kept` keeps (undefined: the root is dropped). A write that fails is ignored (writeShard).
 */
export function writeShards(
  paths: StorePaths,
  changed: ReadonlySet<string>,
  roots: Iterable<string>,
  kept: (root: string) => CachedTree | undefined,
): void {
  const shards = new Map<string, Array<[string, CachedTree]>>();
  for (const root of changed) shards.set(fingerprintShardFile(paths, root), []);
  for (const root of roots) {
    const tree = kept(root);
    if (tree !== undefined) shards.get(fingerprintShardFile(paths, root))?.push([root, tree]);
  }
  for (const [file, trees] of shards) {
    const json = trees.map(([root, { files, fingerprint, directories }]) => [
      root,
      directories === undefined
        ? [fingerprint, Object.fromEntries(files)]
        : [fingerprint, Object.fromEntries(files), Object.fromEntries(directories)],
    ]);
    writeShard(file, FORMAT, Object.fromEntries(json));
  }
}

/** Whether a directory's lstat is the one cached, field by field. */
export function sameDirectoryStat(hit: CachedDirectory, info: Stats): boolean {
  return (
    hit[0] === info.dev &&
    hit[1] === info.ino &&
    hit[2] === info.mtimeMs &&
    hit[3] === info.ctimeMs &&
    hit[4] === info.mode
  );
}

/**
 * The shards of `roots` as read (each shard whole: other roots of the same shard too), keeping
 * only well-formed entries (anything else is recomputed).
 */
export function readFingerprintCache(
  paths: StorePaths,
  roots: readonly string[],
): FingerprintCache {
  const out: FingerprintCache = new Map();
  // The shard names first, then a path per shard (at most 256), not one per root.
  const shards = new Set(roots.map((root) => fnv1a(root).slice(0, 2)));
  const dir = fingerprintCacheDir(paths);
  for (const shard of shards) readShardInto(readShard(join(dir, `${shard}.json`), FORMAT), out);
  return out;
}

function readShardInto(value: unknown, out: FingerprintCache): void {
  if (!isRecord(value)) return;
  for (const [root, tree] of Object.entries(value)) {
    if (!Array.isArray(tree) || tree.length < 2 || tree.length > 3 || !isRecord(tree[1])) continue;
    const files = new Map<string, CachedFile>();
    let whole = typeof tree[0] === 'string';
    for (const [path, entry] of Object.entries(tree[1]))
      if (isCachedFile(entry)) files.set(path, entry);
      else whole = false;
    const fingerprint = whole ? (tree[0] as string) : null;
    const directories = fingerprint === null ? undefined : directoriesIn(tree[2]);
    out.set(
      root,
      directories === undefined ? { files, fingerprint } : { files, fingerprint, directories },
    );
  }
}

/** The entry of `file` when `cached` holds a hash taken with exactly its stat, else null. */
export function cachedEntry(
  file: TreeFile,
  cached: ReadonlyMap<string, CachedFile> | undefined,
): TreeEntry | null {
  const hit = cached?.get(file.path);
  return hit !== undefined && sameStat(hit, file.info) ? entryOf(file, hit[6]) : null;
}

/** Whether a file's lstat is the one its hash was cached with (undefined: none cached). */
export function sameStat(hit: CachedFile | undefined, info: Stats): boolean {
  return (
    hit !== undefined &&
    hit[0] === info.dev &&
    hit[1] === info.ino &&
    hit[2] === info.size &&
    hit[3] === info.mtimeMs &&
    hit[4] === info.ctimeMs &&
    hit[5] === info.mode
  );
}

/** Whether `info` changed too recently for its stat to stand for its content (RACY_MS). */
export function isRacy(info: Stats, now: number): boolean {
  return Math.max(info.mtimeMs, info.ctimeMs) > now - RACY_MS;
}

/** The lstat fields a CachedFile keeps, in its order. */
export function statOf(info: Stats): [number, number, number, number, number, number] {
  return [info.dev, info.ino, info.size, info.mtimeMs, info.ctimeMs, info.mode];
}

/** A tree's layout (TreeScan.layout): its directories, sorted, as JSON. */
export function layoutOf(directories: readonly string[]): string {
  return JSON.stringify([...directories].sort());
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Cached directory stats as written, or undefined when absent or malformed (then a walk). */
function directoriesIn(value: unknown): Map<string, CachedDirectory> | undefined {
  if (!isRecord(value) || !Object.hasOwn(value, '')) return undefined;
  const out = new Map<string, CachedDirectory>();
  for (const [path, entry] of Object.entries(value)) {
    if (!Array.isArray(entry) || entry.length !== 5) return undefined;
    if (!entry.every((n) => typeof n === 'number')) return undefined;
    out.set(path, entry as CachedDirectory);
  }
  return out;
}

function isCachedFile(value: unknown): value is CachedFile {
  if (!Array.isArray(value) || value.length !== 7 || typeof value[6] !== 'string') return false;
  for (let i = 0; i < 6; i += 1) if (typeof value[i] !== 'number') return false;
  return true;
}
