import { lstatSync, mkdirSync, unlinkSync } from 'node:fs';
import { stagingRoot } from './paths.js';
import type { StorePaths } from './store-paths.js';

/**
 * D4: the staging root (`<data>/.staging`) is a directory of the store. A symlink there is none
 * hookpm made: nothing is staged, marked or collected through it (a collection empties staging,
 * so through a symlink it would delete wherever the link leads).
 */
export function isLinkedStagingRoot(paths: StorePaths): boolean {
  return lstatSync(stagingRoot(paths), { throwIfNoEntry: false })?.isSymbolicLink() === true;
}

/**
 * Makes the staging root a directory, replacing a symlink found there (the link only: where it
 * leads is left as it is), and returns its path. Throws what mkdir throws.
 */
export function makeStagingRoot(paths: StorePaths): string {
  const root = stagingRoot(paths);
  if (isLinkedStagingRoot(paths)) unlinkSync(root);
  mkdirSync(root, { recursive: true });
  return root;
}
