import { closeSync, constants, lstatSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { syncPath } from '../io/sync-tree.js';
import { errnoCode, quietly, toStoreError } from '../io/fs-error.js';
import { readRegularText } from '../io/read-regular-file.js';
import { removeDataDir } from './data-dir.js';
import { stagingRoot } from './paths.js';
import { makeOwnDir } from './own-dir.js';
import { pluginDataDir } from './plugin-dirs.js';
import { dataUsers } from './state/data-users.js';
import type { State } from './state/state-schema.js';
import type { StorePaths } from './store-paths.js';

/**
 * registry.md S41: the marks that make the next collection walk every plugin directory. Each is a
 * file in staging, so the staging scan every collection starts with finds it:
 * - a transaction's mark, `stage-<pid>-commit-<n>`: in use while its process lives (collect.ts
 *   spares a live process's staging), a leftover once it is dead, which is how a transaction that
 *   promoted trees and never wrote its state (a crash, a kill) is noticed. One that deletes data
 *   directories after its state write (an uninstall, plugins.md V3) lists their plugin ids in its
 *   mark, a JSON array (the mark is empty otherwise); a collection that finds the mark of a dead
 *   process deletes each listed one that no record of the state names (removeMarkedData), so a
 *   kill between the state write and the deletion leaves none behind;
 * - a released pin's mark, `released`, empty: a leftover at once, since the trees a session ran
 *   may have nothing else naming them. One file for every release: a pin replaced at each
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

/** A mark lists a few plugin ids; one larger than this is none hookpm wrote. */
const MARK_MAX_BYTES = 1 << 20;

/** Whether a name in staging is a mark (collect.ts reports it apart from staging trees). */
export function isMark(name: string): boolean {
  return name === RELEASED || /^stage-\d+-commit-[0-9a-z]+$/.test(name);
}

/**
 * Marks a transaction under way, before it promotes any tree or writes the state, and flushes the
 * mark to disk so that it is there after a power loss whenever a promoted tree or the state
 * written is. `dataIds`: the plugins whose data directories the caller deletes after its state
 * write (none for an uninstall with `--keep-data`). Returns a function that removes the mark, once
 * the caller's collection is done and those data directories are deleted (a removal that fails
 * leaves a mark that a later collection takes for a crash: it walks every directory, which is only
 * slower, and deletes the listed data directories no record names, which was meant anyway). A mark
 * that cannot be written is removed before its error (E_NOSPC, E_STORE_READONLY, E_IO) is thrown.
 */
export async function markTransaction(
  paths: StorePaths,
  dataIds: readonly string[] = [],
): Promise<() => void> {
  const file = join(stagingRoot(paths), commitMarkName());
  try {
    makeOwnDir(stagingRoot(paths));
    writeFileSync(file, dataIds.length === 0 ? '' : JSON.stringify(dataIds), {
      flag: 'wx',
      mode: 0o600,
    });
    if (dataIds.length > 0) await syncPath(file);
    await syncPath(stagingRoot(paths));
  } catch (error) {
    // A mark made and then refused its bytes (a full disk) is ours to remove; one already there
    // (EEXIST, never ours) is left.
    if (errnoCode(error) !== 'EEXIST') quietly(() => rmSync(file, { force: true }));
    throw toStoreError(error, file, 'write the transaction mark');
  }
  return () => quietly(() => rmSync(file, { force: true }));
}

/**
 * The plugin ids whose data directories a transaction's mark lists (markTransaction); none for an
 * empty mark, a released pin's, or one that cannot be read or is not such a list (a mark cut short
 * by a power loss lists nothing). Never blocks or follows a link (readRegularText).
 */
export function markedDataIds(file: string): string[] {
  try {
    const text = readRegularText(file, { maxBytes: MARK_MAX_BYTES });
    const ids: unknown = text === '' ? [] : JSON.parse(text);
    return Array.isArray(ids) && ids.every((id) => typeof id === 'string') ? ids : [];
  } catch {
    return [];
  }
}

/**
 * plugins.md V3: deletes the data directories the mark `mark` lists (markedDataIds) that no record
 * of `state`, user-wide or of a project, names (dataUsers); returns them. The caller holds the
 * store lock, passes the state as it is on disk now, and removes the mark only after this.
 */
export async function removeMarkedData(
  paths: StorePaths,
  state: State,
  mark: string,
): Promise<string[]> {
  const removed: string[] = [];
  for (const id of markedDataIds(mark)) {
    const dir = pluginDataDir(paths, id);
    if (dataUsers(state, id).length > 0 || lstatSync(dir, { throwIfNoEntry: false }) === undefined)
      continue;
    if (await removeDataDir(paths, id)) removed.push(dir);
  }
  return removed;
}

/**
 * removeMarkedData, run before the caller changes the state, then empties the mark's list: each
 * id it listed is settled against the state on disk, its data deleted when no record names it,
 * else kept because the transaction that listed it never wrote its state. The mark itself stays
 * (a dead transaction's trees are still for the collection that walks every directory), and no
 * later collection, after a state write that removes one of those ids (`uninstall --keep-data`),
 * deletes data the user kept. Emptied in place (never through a symlink) and flushed; an error
 * is thrown before the caller changes anything.
 */
export async function settleMarkedData(
  paths: StorePaths,
  state: State,
  mark: string,
): Promise<string[]> {
  const removed = await removeMarkedData(paths, state, mark);
  if (markedDataIds(mark).length === 0) return removed;
  try {
    closeSync(openSync(mark, constants.O_WRONLY | constants.O_TRUNC | constants.O_NOFOLLOW));
    await syncPath(mark);
  } catch (error) {
    throw toStoreError(error, mark, 'write the transaction mark');
  }
  return removed;
}

/**
 * Marks that a session pin was removed or replaced, after it was. Never throws: a mark that
 * cannot be written leaves the pin's trees for the next collection that walks every directory
 * (an uninstall, a rollback, `doctor --fix`).
 */
export function markPinReleased(paths: StorePaths): void {
  quietly(() => {
    makeOwnDir(stagingRoot(paths));
    // `wx`: never through a symlink; a mark already there is the mark (EEXIST is ignored).
    writeFileSync(join(stagingRoot(paths), RELEASED), '', { flag: 'wx', mode: 0o600 });
  });
}
