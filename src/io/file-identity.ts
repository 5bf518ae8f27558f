import { fstatSync, lstatSync, type BigIntStats } from 'node:fs';

/**
 * A file's identity, as the caches that stand for a file's content compare it (registry.md S33,
 * S42; the run tables): device, inode, size, modification and change times in nanoseconds. A
 * file hookpm only ever replaces by a rename gets another identity at every write.
 */
export function statsIdentity(s: BigIntStats): string {
  return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
}

/**
 * Whether `file` (a symlink there is not followed) is the file open as `fd`: the same device and
 * inode. Exact for as long as `fd` stays open, whatever its times and size: an open file's inode
 * is not freed, so no other file takes its number meanwhile. False when either cannot be statted.
 */
export function isOpenFileAt(fd: number, file: string): boolean {
  try {
    const open = fstatSync(fd, { bigint: true });
    const there = lstatSync(file, { bigint: true });
    return open.dev === there.dev && open.ino === there.ino;
  } catch {
    return false;
  }
}
