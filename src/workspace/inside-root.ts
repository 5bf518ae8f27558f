import { lstatSync, realpathSync } from 'node:fs';
import { dirname } from 'node:path';
import { HookpmError } from '../errors.js';
import { isInside } from '../text/path-inside.js';
import { errnoCode, toUserFileError } from '../io/fs-error.js';

/**
 * Where `path` leads once every symlink is resolved: the real path of `path` when it exists, else
 * of its nearest existing ancestor (what is below that does not exist, so is created as plain
 * directories and files). Null when a symlink on the way dangles: where a write through it would
 * land cannot be told before it happens.
 */
export function landingOf(path: string): string | null {
  for (let probe = path; ; probe = dirname(probe)) {
    try {
      lstatSync(probe);
    } catch (error) {
      const code = errnoCode(error);
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw toUserFileError(error, probe, 'look at');
      if (dirname(probe) === probe) return null;
      continue;
    }
    try {
      return realpathSync(probe);
    } catch {
      return null;
    }
  }
}

/** The real path of the directory `root` (E_IO and kin when it cannot be resolved). */
export function realRootOf(root: string): string {
  try {
    return realpathSync(root);
  } catch (error) {
    throw toUserFileError(error, root, 'resolve');
  }
}

/**
 * docs/reference/rules/registry.md#j2: a file hookpm writes for a project (or into a plugin
 * directory `hookpm init` fills) lands inside `root` once symlinks are resolved, or the command is
 * refused with E_SYMLINK_ESCAPE naming the file and where it leads; nothing is written (the
 * caller checks before its first write). `what` names the root in the message ("the project").
 */
export function assertWriteInside(root: string, file: string, what: string): void {
  const realRoot = realRootOf(root);
  const landing = landingOf(file);
  if (landing !== null && isInside(realRoot, landing)) return;
  const where =
    landing === null
      ? 'a symlink on the way to it dangles, so where it would be written cannot be known'
      : `a symlink leads it to ${landing}, outside ${what} ${realRoot}`;
  throw escapeError(`refusing to write ${file}: ${where}; nothing was written`, file, landing, {
    realRoot,
    what,
    verb: 'writes',
  });
}

/**
 * registry.md J2: a project file hookpm reads (hookpm.json, hookpm.lock) leads inside `root` once
 * symlinks are resolved, or the command is refused with E_SYMLINK_ESCAPE naming the file and where
 * it leads, before it is read: a clone's symlink never makes hookpm read (and quote) another file
 * of this machine. A file that does not resolve (missing, a dangling or looping symlink) passes:
 * reading it says what it is.
 */
export function assertReadInside(root: string, file: string, what: string): void {
  let landing: string;
  try {
    landing = realpathSync(file);
  } catch {
    return;
  }
  const realRoot = realRootOf(root);
  if (isInside(realRoot, landing)) return;
  const where = `a symlink leads it to ${landing}, outside ${what} ${realRoot}`;
  throw escapeError(`refusing to read ${file}: ${where}; it was not read`, file, landing, {
    realRoot,
    what,
    verb: 'reads',
  });
}

function escapeError(
  message: string,
  file: string,
  landing: string | null,
  { realRoot, what, verb }: { realRoot: string; what: string; verb: 'reads' | 'writes' },
): HookpmError {
  return new HookpmError('E_SYMLINK_ESCAPE', message, {
    file,
    found: landing,
    root: realRoot,
    hint: `hookpm ${verb} ${what}'s files only inside ${what}. Replace the symlink with a regular file or directory (or remove it), then run the command again.`,
  });
}
