import { lstat, readFile, readdir, readlink } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * True when the two directory trees hold the same entries: same relative names, same kinds, same
 * permission bits, same file bytes and symlink targets. Used to keep an existing installed tree
 * when an identical one is promoted again (D4: trees are never modified in place).
 */
export async function sameTree(a: string, b: string): Promise<boolean> {
  const [statA, statB] = await Promise.all([lstat(a), lstat(b)]);
  if (kindOf(statA) !== kindOf(statB) || (statA.mode & 0o7777) !== (statB.mode & 0o7777))
    return false;
  if (statA.isSymbolicLink()) return (await readlink(a)) === (await readlink(b));
  if (statA.isFile()) {
    if (statA.size !== statB.size) return false;
    const [bytesA, bytesB] = await Promise.all([readFile(a), readFile(b)]);
    return bytesA.equals(bytesB);
  }
  if (!statA.isDirectory()) return false;
  const [namesA, namesB] = await Promise.all([readdir(a), readdir(b)]);
  if (namesA.length !== namesB.length) return false;
  namesA.sort();
  namesB.sort();
  for (let i = 0; i < namesA.length; i += 1) {
    const name = namesA[i] as string;
    if (name !== namesB[i]) return false;
    if (!(await sameTree(join(a, name), join(b, name)))) return false;
  }
  return true;
}

function kindOf(stats: {
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
}): string {
  if (stats.isSymbolicLink()) return 'symlink';
  if (stats.isDirectory()) return 'dir';
  return stats.isFile() ? 'file' : 'other';
}
