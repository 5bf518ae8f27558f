import { lstat, readFile, readdir, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import { canonicalJson, sha256Base64, sha256Hex } from '../json/canonical-json.js';
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

/** sha256Hex(''), written out: computing it as this module loads would load node:crypto. */
const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
const PARALLEL_READS = 32;

export async function fingerprintTree(root: string): Promise<string> {
  return fingerprintOf(await listTree(root));
}

/** The fingerprint over a tree's entries, in any order (an extraction lists what it wrote). */
export function fingerprintOf(entries: readonly TreeEntry[]): string {
  const sorted = [...entries].sort((a, b) => compareCodeUnits(a[0], b[0]));
  return `sha256-${sha256Base64(canonicalJson(sorted))}`;
}

/** The sorted entries the fingerprint is computed over (for `hookpm doctor` to say what changed). */
export async function listTree(root: string): Promise<TreeEntry[]> {
  const paths = await walk(root, '');
  const entries: TreeEntry[] = new Array(paths.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < paths.length; i = next++) entries[i] = await entryOf(root, paths[i]!);
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_READS, paths.length) }, worker));
  return entries.sort((a, b) => compareCodeUnits(a[0], b[0]));
}

/** Every non-directory below `dir`, as `/`-separated paths relative to the root. */
async function walk(root: string, dir: string): Promise<string[]> {
  const found = await readdir(join(root, dir), { withFileTypes: true });
  const nested = await Promise.all(
    found.map(async (entry) => {
      const relative = dir === '' ? entry.name : `${dir}/${entry.name}`;
      return entry.isDirectory() ? walk(root, relative) : [relative];
    }),
  );
  return nested.flat();
}

async function entryOf(root: string, relative: string): Promise<TreeEntry> {
  const full = join(root, relative);
  const info = await lstat(full);
  if (info.isSymbolicLink()) return [relative, 'symlink', sha256Hex(await readlink(full)), 0];
  if (!info.isFile()) return [relative, 'other', EMPTY_SHA256, info.mode & 0o777];
  return [relative, 'file', sha256Hex(await readFile(full)), info.mode & 0o777];
}
