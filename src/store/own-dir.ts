import { lstatSync, mkdirSync, unlinkSync } from 'node:fs';

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
 * as it is), and returns it. Throws what mkdir throws.
 */
export function makeOwnDir(dir: string): string {
  if (isLinkedDir(dir)) unlinkSync(dir);
  mkdirSync(dir, { recursive: true });
  return dir;
}
