import type { BigIntStats } from 'node:fs';

/**
 * A file's identity, as the caches that stand for a file's content compare it (registry.md S33,
 * S42; the run tables): device, inode, size, modification and change times in nanoseconds. A
 * file hookpm only ever replaces by a rename gets another identity at every write.
 */
export function statsIdentity(s: BigIntStats): string {
  return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
}
