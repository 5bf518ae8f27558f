import { lstat, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { HookpmError } from '../../errors.js';
import { errnoCode } from '../../io/fs-error.js';
import { PLUGINS_DIR, SEARCH_DIR } from '../../registry/sparse/sparse-documents.js';

/** The directories of `outDir` a build writes files into and removes files from. */
const OWN_DIRS = ['tarballs', PLUGINS_DIR.slice(0, -1), SEARCH_DIR.slice(0, -1)];

/**
 * Checks, before a build writes anything, that it writes only inside `outDir` (the rule of
 * registry.md J2 for the files a command writes): `outDir` is a directory or absent (E_USAGE
 * otherwise), and `tarballs/`, `plugins/`, each folder of `plugins/` and `search/` are real
 * directories or absent. One that is a symlink is E_SYMLINK_ESCAPE naming it: the build would
 * write its files where the link leads and remove the `.tgz` or `.json` files it finds there. The
 * output directory itself may be a link: the user named it.
 */
export async function checkOutputDirs(outDir: string): Promise<void> {
  const top = await kindOf(outDir, stat);
  if (top === 'absent') return;
  if (top !== 'directory') throw notDirectory(outDir);
  for (const name of OWN_DIRS) {
    const dir = join(outDir, name);
    const kind = await kindOf(dir, lstat);
    if (kind === 'symlink') throw symlinked(dir);
    if (kind === 'other') throw notDirectory(dir);
    if (kind !== 'directory' || `${name}/` !== PLUGINS_DIR) continue;
    for (const entry of await readdir(dir, { withFileTypes: true }))
      if (entry.isSymbolicLink()) throw symlinked(join(dir, entry.name));
  }
}

type Kind = 'absent' | 'directory' | 'symlink' | 'other';

async function kindOf(path: string, look: typeof lstat): Promise<Kind> {
  try {
    const info = await look(path);
    return info.isDirectory() ? 'directory' : info.isSymbolicLink() ? 'symlink' : 'other';
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return 'absent';
    throw error;
  }
}

function notDirectory(path: string): HookpmError {
  return new HookpmError('E_USAGE', `cannot build a registry into ${path}: it is not a directory`, {
    file: path,
    hint: 'Give --out a directory (it is made when missing), or move the file aside.',
  });
}

function symlinked(path: string): HookpmError {
  return new HookpmError(
    'E_SYMLINK_ESCAPE',
    `refusing to build into ${path}: it is a symlink, and the build writes and removes files in it; nothing was written`,
    {
      file: path,
      hint: 'A registry build writes only inside its output directory: replace the symlink with a directory (or remove it), then build again.',
    },
  );
}
