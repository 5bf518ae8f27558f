import { lstatSync, mkdirSync, unlinkSync } from 'node:fs';
import { HookpmError } from '../errors.js';
import { clip } from '../text/clip.js';

/**
 * D4: the folders of the store that hookpm makes and empties (the staging directory `.staging`,
 * the installed-files lists) are directories of the store. A symlink there is none hookpm made:
 * nothing is staged, written or collected through it (a collection deletes what such a folder
 * holds, so through a symlink it would delete wherever the link leads).
 */
export function isLinkedDir(dir: string): boolean {
  return lstatSync(dir, { throwIfNoEntry: false })?.isSymbolicLink() === true;
}

/**
 * Makes `dir` a directory, replacing a symlink found there (the link only: where it leads is left
 * as it is), and returns it. A regular file (or a FIFO, a socket, a device) there is none hookpm
 * made either, and may be the user's: it is left as it is, E_IO naming it and the fix. Throws
 * what mkdir throws otherwise.
 */
export function makeOwnDir(dir: string): string {
  const stats = lstatSync(dir, { throwIfNoEntry: false });
  if (stats?.isSymbolicLink() === true) unlinkSync(dir);
  else if (stats !== undefined && !stats.isDirectory())
    throw new HookpmError(
      'E_IO',
      `cannot use ${clip(dir)}: it is ${stats.isFile() ? 'a file' : 'no file or directory hookpm made'}, not a directory`,
      {
        file: dir,
        hint: `hookpm keeps a folder of its own there: move it aside (after checking that nothing in it is needed) and run the command again.`,
      },
    );
  mkdirSync(dir, { recursive: true });
  return dir;
}
