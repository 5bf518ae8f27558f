import { readdirSync, unlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { durableTempWriter } from './durable-write.js';
import { quietly } from './fs-error.js';
import { isProcessAlive } from './process-alive.js';

/**
 * Removes the temporary files of `files` that a hookpm killed while writing them left beside them
 * (registry.md D2: `.<name>.tmp-<pid>-<hex>`), those of processes no longer running, reading each
 * directory once, so crashes do not pile them up in the user's directories. The caller holds the
 * store lock, so no live hookpm of this store is writing them. Never throws.
 */
export function removeDeadTemps(files: readonly string[]): void {
  for (const dir of new Set(files.map((file) => dirname(file)))) {
    const here = files.filter((file) => dirname(file) === dir);
    quietly(() => {
      for (const name of readdirSync(dir)) {
        const writer = here
          .map((file) => durableTempWriter(file, name))
          .find((pid) => pid !== null);
        if (writer != null && !isProcessAlive(writer)) quietly(() => unlinkSync(join(dir, name)));
      }
    });
  }
}
