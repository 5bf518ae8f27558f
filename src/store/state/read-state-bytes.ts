import { readRegularFile } from '../../io/read-regular-file.js';

/**
 * A state document larger than this is refused unread (one with a thousand plugins is well under
 * a megabyte).
 */
export const STATE_MAX_BYTES = 64 * 1024 * 1024;

/**
 * The bytes of the state document at `file` (D2): read only when it is a regular file of at most
 * STATE_MAX_BYTES and not a symlink (hookpm owns it, and a link could point it anywhere); a FIFO
 * or a device there is refused with E_IO at once, never waited on. The operating system's error
 * (ENOENT: no state yet) passes through unchanged.
 */
export function readStateBytes(file: string): Buffer {
  return readRegularFile(file, { maxBytes: STATE_MAX_BYTES });
}
