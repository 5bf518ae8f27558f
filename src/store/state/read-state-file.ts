import { closeSync } from 'node:fs';
import { openRegularFile, readOpenedFile } from '../../io/read-regular-file.js';
import { STATE_MAX_BYTES } from './read-state-bytes.js';
import { fileIdentity } from './state-seal.js';

/**
 * The state file's bytes, read as readStateBytes reads them, with the identity of the file read
 * (state-seal.ts), taken from the same descriptor after the read: a change made while it was read
 * shows in the identity. Throws what the read throws (ENOENT: no state yet).
 */
export function readStateFile(file: string): { bytes: Buffer; identity: string } {
  const fd = openRegularFile(file, { maxBytes: STATE_MAX_BYTES });
  try {
    const bytes = readOpenedFile(fd, file, STATE_MAX_BYTES);
    return { bytes, identity: fileIdentity(fd) };
  } finally {
    closeSync(fd);
  }
}
