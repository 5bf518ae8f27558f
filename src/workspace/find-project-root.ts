import { statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/**
 * engine.md S2: the nearest ancestor of `cwd` (itself included) holding a `.git` directory or a
 * `.git` file; without one, `cwd` itself (resolved to an absolute path, symlinks kept). The stats
 * are synchronous: a few of them, each far cheaper than a round trip through the thread pool, on
 * the path of every dispatch and linked agent event.
 */
export async function findProjectRoot(cwd: string): Promise<string> {
  const start = resolve(cwd);
  for (let dir = start; ; dir = dirname(dir)) {
    if (hasGitEntry(dir)) return dir;
    if (dirname(dir) === dir) return start;
  }
}

function hasGitEntry(dir: string): boolean {
  try {
    const entry = statSync(join(dir, '.git'), { throwIfNoEntry: false });
    return entry !== undefined && (entry.isDirectory() || entry.isFile());
  } catch {
    return false;
  }
}
