import { lstatSync, readdirSync, type Stats } from 'node:fs';
import { createHash } from 'node:crypto';
import { open, readFile, readlink } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { sha256Base64, sha256Hex } from '../json/canonical-json.js';
import { compareCodeUnits } from '../json/compare.js';

/**
 * Q6: the files fingerprint of an installed plugin tree: `sha256-` + base64 SHA-256 of the
 * canonical JSON of the list of `[relative path, kind, sha256 hex, mode]`, one per file, sorted by
 * path (UTF-16 code units, `/` separators). `kind` is `file` (content hash, `mode & 0o777`),
 * `symlink` (hash of the link text, mode 0: a link is never followed) or `other` (a FIFO or
 * socket: empty hash, its mode). Directories add no entry of their own: an empty directory does
 * not change the fingerprint, any file under it does, and so does an exec bit.
 */
export type TreeEntry = [
  path: string,
  kind: 'file' | 'symlink' | 'other',
  sha256: string,
  mode: number,
];

/** One non-directory of a tree as a walk found it: its `/`-separated relative path and lstat. */
export interface TreeFile {
  path: string;
  info: Stats;
}

/** What walkTree saw: every non-directory with its lstat, and every directory below the root. */
export interface TreeWalk {
  files: TreeFile[];
  directories: string[];
}

/** sha256Hex(''), written out: computing it as this module loads would load node:crypto. */
const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
const PARALLEL_READS = 32;
/**
 * Files larger than this are hashed a piece at a time: a whole read would hold the file in memory,
 * and Node refuses one over 2 GiB (a directory install has no byte limit).
 */
const WHOLE_READ_MAX = 64 * 1024 * 1024;
const PIECE = 1024 * 1024;

export async function fingerprintTree(root: string): Promise<string> {
  return fingerprintOf(await listTree(root));
}

/** The fingerprint over a tree's entries, in any order (an extraction lists what it wrote). */
export function fingerprintOf(entries: readonly TreeEntry[]): string {
  const sorted = [...entries].sort((a, b) => compareCodeUnits(a[0], b[0]));
  // Arrays of strings and integers only: JSON.stringify writes them exactly as canonicalJson does.
  return `sha256-${sha256Base64(JSON.stringify(sorted))}`;
}

/** The sorted entries the fingerprint is computed over (for `hookpm doctor` to say what changed). */
export async function listTree(root: string): Promise<TreeEntry[]> {
  const { files } = walkTree(root);
  const entries = await readEntries(root, files);
  return entries.sort((a, b) => compareCodeUnits(a[0], b[0]));
}

/**
 * Every non-directory below `root` with its lstat, and every directory; a symlink is listed, never
 * followed. Synchronous: a walk is one small call after another, and a thread-pool round trip per
 * readdir or lstat costs more than the call (2-3x over 200 plugin trees or one of 2,000 files).
 * Throws what readdir or lstat throws. `onDirectory` is given each directory's lstat (`''`: the
 * root), taken before it is read.
 */
export function walkTree(
  root: string,
  onDirectory?: (path: string, info: Stats) => void,
): TreeWalk {
  const walk: TreeWalk = { files: [], directories: [] };
  const visit = (dir: string, full: string): void => {
    // Before the directory is read, so a change made while it is read shows in a later stat.
    onDirectory?.(dir, lstatSync(full));
    for (const entry of readdirSync(full, { withFileTypes: true })) {
      const path = dir === '' ? entry.name : `${dir}/${entry.name}`;
      // As join(root, path) gives, without normalizing a path already normal at each step.
      const at = `${full}${sep}${entry.name}`;
      if (entry.isDirectory()) {
        walk.directories.push(path);
        visit(path, at);
      } else walk.files.push({ path, info: lstatSync(at) });
    }
  };
  visit('', join(root));
  return walk;
}

/** The entries of `files` (in their order), reading up to 32 files at once. */
export async function readEntries(root: string, files: readonly TreeFile[]): Promise<TreeEntry[]> {
  const entries: TreeEntry[] = new Array(files.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < files.length; i = next++) {
      const file = files[i]!;
      entries[i] = entryOf(file, await contentHash(root, file));
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_READS, files.length) }, worker));
  return entries;
}

/** The entry of `file` whose content (a link's text) has the SHA-256 hex `sha256`. */
export function entryOf({ path, info }: TreeFile, sha256: string): TreeEntry {
  if (info.isSymbolicLink()) return [path, 'symlink', sha256, 0];
  return [path, info.isFile() ? 'file' : 'other', sha256, info.mode & 0o777];
}

async function contentHash(root: string, { path, info }: TreeFile): Promise<string> {
  if (info.isSymbolicLink()) return sha256Hex(await readlink(join(root, path)));
  if (!info.isFile()) return EMPTY_SHA256;
  if (info.size <= WHOLE_READ_MAX) return sha256Hex(await readFile(join(root, path)));
  return sha256OfPieces(join(root, path));
}

/** The SHA-256 hex of a file's bytes, read PIECE bytes at a time. */
async function sha256OfPieces(file: string): Promise<string> {
  const hash = createHash('sha256');
  const handle = await open(file, 'r');
  try {
    const piece = Buffer.allocUnsafe(PIECE);
    for (;;) {
      const { bytesRead } = await handle.read(piece, 0, PIECE, null);
      if (bytesRead === 0) break;
      hash.update(piece.subarray(0, bytesRead));
    }
  } finally {
    await handle.close();
  }
  return hash.digest('hex');
}
