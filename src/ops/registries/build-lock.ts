import { readdir, rm, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { anyDurableTempWriter } from '../../io/durable-write.js';
import { withLock } from '../../io/lock.js';

/** The prefix of a build's scratch directory in its output directory (buildRegistry). */
export const SCRATCH_PREFIX = '.build-';

/** The lock file of builds into one output directory; present only while a build runs. */
const LOCK_FILE = '.build.lock';

/**
 * Runs `fn` as the only build into `outDir` (the cross-process lock of registry.md D3, taken over
 * from a build that was killed), so two builds never interleave their tarballs, documents and
 * index. Holding the lock, it first removes the scratch directories that builds killed midway left
 * (`.build-*`), and their temporary files beside `index.json`, `index.html` and `registry.json`
 * (D2's `.<name>.tmp-<pid>-<hex>`): no other build is running to own them, and a static server
 * would serve them. write-sparse.ts removes those in `plugins/` and `search/`.
 */
export async function withBuildLock<T>(outDir: string, fn: () => Promise<T>): Promise<T> {
  return withLock(
    join(outDir, LOCK_FILE),
    async () => {
      for (const entry of await readdir(outDir, { withFileTypes: true })) {
        const at = join(outDir, entry.name);
        if (entry.name.startsWith(SCRATCH_PREFIX)) await rm(at, { recursive: true, force: true });
        else if (entry.isFile() && anyDurableTempWriter(entry.name) !== null)
          await unlink(at).catch(() => undefined);
      }
      return fn();
    },
    { guards: `the registry output directory ${outDir}`, owner: 'user' },
  );
}
