import { readRegularFile } from '../../io/read-regular-file.js';

/**
 * Whether `file` is a regular file holding exactly `bytes`: a build leaves such a file untouched
 * (registry.md N9), so its mtime and inode stay and a sync to an object store, a CDN or `registry
 * serve` (N10) sees nothing new. Anything else (missing, another size, a symlink, a FIFO, a device:
 * D7, never read or waited on) is false, and the build replaces it.
 */
export function holdsBytes(file: string, bytes: Buffer | string): boolean {
  const expected = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
  try {
    return readRegularFile(file, { maxBytes: expected.length }).equals(expected);
  } catch {
    return false;
  }
}
