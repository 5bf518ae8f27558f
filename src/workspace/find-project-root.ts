import { stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

/**
 * engine.md S2: the nearest ancestor of `cwd` (itself included) holding a `.git` directory or a
 * `.git` file; without one, `cwd` itself (resolved to an absolute path, symlinks kept).
 */
export async function findProjectRoot(cwd: string): Promise<string> {
  const start = resolve(cwd);
  for (let dir = start; ; dir = dirname(dir)) {
    if (await hasGitEntry(dir)) return dir;
    if (dirname(dir) === dir) return start;
  }
}

async function hasGitEntry(dir: string): Promise<boolean> {
  try {
    const entry = await stat(resolve(dir, '.git'));
    return entry.isDirectory() || entry.isFile();
  } catch {
    return false;
  }
}
