import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { syncPath } from '../io/sync-tree.js';
import { quietly, toStoreError } from '../io/fs-error.js';
import { stagingRoot } from './paths.js';
import type { StorePaths } from './store-paths.js';

/**
 * registry.md S41: the marks that make the next collection walk every plugin directory. Each is an
 * empty file in staging, so the staging scan every collection starts with finds it:
 * - a transaction's mark, `stage-<pid>-commit-<n>`: in use while its process lives (collect.ts
 *   spares a live process's staging), a leftover once it is dead, which is how a transaction that
 *   promoted trees and never wrote its state (a crash, a kill) is noticed;
 * - a released pin's mark, `released`: a leftover at once, since the trees a session ran may have
 *   nothing else naming them. One file for every release: a pin replaced at each
 *   event (one that fails closed is made afresh at every event) leaves one mark, not one per
 *   event. A release between a collection's reading of the pins and its removal of the mark is
 *   lost; its trees wait for the next collection that walks every directory.
 * Any collection that walks every plugin directory removes the leftover marks it found.
 */

let count = 0;

function commitMarkName(): string {
  count += 1;
  return `stage-${process.pid}-commit-${Date.now().toString(36)}${count}`;
}

const RELEASED = 'released';

/** Whether a name in staging is a mark (collect.ts reports it apart from staging trees). */
export function isMark(name: string): boolean {
  return name === RELEASED || /^stage-\d+-commit-[0-9a-z]+$/.test(name);
}

/**
 * Marks a transaction under way, before it promotes any tree, and flushes the mark to disk so
 * that it is there after a power loss whenever a promoted tree is. Returns a function that removes
 * it, once the transaction's collection is done (a removal that fails leaves a mark that a later
 * collection takes for a crash: it walks every directory, which is only slower).
 */
export async function markTransaction(paths: StorePaths): Promise<() => void> {
  const file = join(stagingRoot(paths), commitMarkName());
  try {
    mkdirSync(stagingRoot(paths), { recursive: true });
    writeFileSync(file, '', { flag: 'wx', mode: 0o600 });
    await syncPath(stagingRoot(paths));
  } catch (error) {
    throw toStoreError(error, file, 'write the transaction mark');
  }
  return () => quietly(() => rmSync(file, { force: true }));
}

/**
 * Marks that a session pin was removed or replaced, after it was. Never throws: a mark that
 * cannot be written leaves the pin's trees for the next collection that walks every directory
 * (an uninstall, a rollback, `doctor --fix`).
 */
export function markPinReleased(paths: StorePaths): void {
  quietly(() => {
    mkdirSync(stagingRoot(paths), { recursive: true });
    // `wx`: never through a symlink; a mark already there is the mark (EEXIST is ignored).
    writeFileSync(join(stagingRoot(paths), RELEASED), '', { flag: 'wx', mode: 0o600 });
  });
}
