import { realpath, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { HookpmError } from '../errors.js';
import { findProjectRoot } from './find-project-root.js';
import { errnoCode } from '../io/fs-error.js';
import { clip } from '../text/clip.js';

/**
 * engine.md T2: the key a workspace is trusted under. `dir` is resolved to its real path first, so
 * a symlink shares its target's trust, then to its project root (S2), so a subdirectory shares its
 * root's trust. The result is a real path, and the function is idempotent on it. Loading must use
 * this same root, so the file that is trusted is the file that is read. Errors: E_USAGE when `dir`
 * is not an existing directory.
 */
export async function canonicalProjectRoot(dir: string): Promise<string> {
  const given = resolve(dir);
  let real: string;
  try {
    real = await realpath(given);
    if (!(await stat(real)).isDirectory())
      throw Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });
  } catch (error) {
    const code = errnoCode(error) ?? 'unknown error';
    throw new HookpmError(
      'E_USAGE',
      `${clip(given)} is not a directory that can be opened (${code})`,
      {
        file: given,
        hint: 'Give an existing project directory (or run the command from inside one).',
      },
    );
  }
  return findProjectRoot(real);
}

/**
 * T2 for a workspace that no longer exists (its project moved or deleted): the key it was stored
 * under when `dir` was its root, that is `dir` made absolute, its nearest existing ancestor
 * resolved to its real path. Null when `dir` exists (canonicalProjectRoot is its key) or when no
 * ancestor can be resolved.
 */
export async function missingWorkspaceKey(dir: string): Promise<string | null> {
  const below: string[] = [];
  for (let probe = resolve(dir); ; probe = dirname(probe)) {
    try {
      const real = await realpath(probe);
      return below.length === 0 ? null : join(real, ...below.reverse());
    } catch (error) {
      const code = errnoCode(error);
      if ((code !== 'ENOENT' && code !== 'ENOTDIR') || dirname(probe) === probe) return null;
      below.push(basename(probe));
    }
  }
}
