import { posix } from 'node:path';

/*
 * cli.md W4: the files a patch in Codex's `apply_patch` format names, for an `if` rule naming
 * `Edit` or `Write` (F2: their primary input is one file's path; a patch names any number).
 */

/** The header lines of the format that name a file: added, updated, deleted, or moved to. */
const FILE_LINE = /^\*\*\* (?:Add File|Update File|Delete File|Move to): (.+)$/;

/** At most this many files are read from one patch; a patch naming more is not read (null). */
const MAX_FILES = 1_000;

/**
 * The files `patch` names, each as written and, when `cwd` is absolute and the path is not, also
 * resolved against it (a rule such as `Edit(/etc/**)` holds for `../../etc/passwd` from the
 * project); an empty list when the text names none (it is not such a patch); null when it names
 * more than MAX_FILES, so that reading stays bounded: the caller must then take a rule as
 * holding, since a file past them could be the one it names.
 */
export function patchFiles(patch: string, cwd: unknown): string[] | null {
  const files: string[] = [];
  let named = 0;
  for (const line of patch.split('\n')) {
    const name = FILE_LINE.exec(line.replace(/\r$/, ''))?.[1]?.trim();
    if (name === undefined || name === '') continue;
    if (++named > MAX_FILES) return null;
    files.push(name);
    if (typeof cwd === 'string' && posix.isAbsolute(cwd))
      files.push(posix.normalize(posix.isAbsolute(name) ? name : posix.join(cwd, name)));
  }
  return files;
}
