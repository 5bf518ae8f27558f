import { accessSync, constants } from 'node:fs';
import { dirname } from 'node:path';
import { errnoCode, toStoreError } from '../io/fs-error.js';
import type { StorePaths } from './store-paths.js';

/**
 * security.md "read-only store: a clear error before any network access": the data directory, or
 * the nearest existing directory above it when it does not exist yet, must be writable (access(2),
 * which also sees a read-only mount). E_STORE_READONLY otherwise. Writes nothing.
 */
export async function assertStoreWritable(paths: StorePaths): Promise<void> {
  let dir = paths.data;
  for (;;) {
    try {
      accessSync(dir, constants.W_OK);
      return;
    } catch (error) {
      const code = errnoCode(error);
      const parent = dirname(dir);
      if (code === 'ENOENT' && parent !== dir) {
        dir = parent;
        continue;
      }
      throw toStoreError(error, dir, 'write to');
    }
  }
}
