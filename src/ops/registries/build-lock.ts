import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { withLock } from '../../io/lock.js';

/** The prefix of a build's scratch directory in its output directory (buildRegistry). */
export const SCRATCH_PREFIX = '.build-';

/** The lock file of builds into one output directory; present only while a build runs. */
const LOCK_FILE = '.build.lock';

/**
 * Runs `fn` as the only build into `outDir` (the cross-process lock of registry.md D3, taken over
 * from a build that was killed), so two builds never interleave their tarballs, documents and
 * index. Holding the lock, it first removes the scratch directories that builds killed midway left
 * (`.build-*`): no other build is running to own them.
 */
export async function withBuildLock<T>(outDir: string, fn: () => Promise<T>): Promise<T> {
  return withLock(
    join(outDir, LOCK_FILE),
    async () => {
      for (const name of await readdir(outDir)) {
        if (name.startsWith(SCRATCH_PREFIX))
          await rm(join(outDir, name), { recursive: true, force: true });
      }
      return fn();
    },
    { guards: `the registry output directory ${outDir}`, owner: 'user' },
  );
}
