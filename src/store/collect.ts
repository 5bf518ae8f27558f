import { existsSync, readdirSync, rmdirSync, statSync } from 'node:fs';
import { rename, rm, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { durableTempPrefix } from '../io/durable-write.js';
import { isMark, removeMarkedData, settleMarkedData } from './collect-marker.js';
import { errnoCode, quietly, toStoreError } from '../io/fs-error.js';
import { readLockFile } from '../io/lock-record.js';
import { isProcessAlive } from '../io/process-alive.js';
import { uniqueHex } from '../io/unique-hex.js';
import { isLinkedDir, makeOwnDir } from './own-dir.js';
import { lockFile, pluginsDir, stagingRoot, stateFile } from './paths.js';
import { installedFilesDir, installedFilesName } from './installed-files.js';
import { pinnedTrees, type PinnedTrees } from './session-pins.js';
import type { StorePaths } from './store-paths.js';
import type { State } from './state/state-schema.js';
import { fieldStrings } from './state/lazy-records.js';
import {
  eachRecord,
  namedTrees,
  normal,
  readRecords,
  recordsIn,
  versionsOf,
} from './named-trees.js';

/** `mark`: a mark of collect-marker.ts (registry.md S41), no problem in itself. */
export type LeftoverKind =
  'staging' | 'mark' | 'unreferenced-tree' | 'temporary-file' | 'installed-files';

export interface Leftover {
  kind: LeftoverKind;
  path: string;
}

/** A staging tree of a live process older than this belongs to a stuck transaction. */
const STAGING_MAX_AGE_MS = 60 * 60_000;

/** A live process keeps lock debris for milliseconds; older debris belongs to nobody. */
const LOCK_DEBRIS_AGE_MS = 60_000;

/**
 * D4: what interrupted or superseded transactions left behind, without removing anything:
 * staging trees of processes that are gone (or an hour old), installed trees that no plugin of
 * `state` (user-wide or of a project) names as its active `path`, its pending update's or its
 * previous one's and no live session pin runs (skipped when `state` is null, that is unknown),
 * temporary state files and lock debris of dead writers.
 *
 * `scope.visit` (registry.md S41): the plugin directories whose trees are looked at, when nothing
 * was found that only a whole walk would settle: no staging leftover (a crashed transaction's
 * mark, a released pin's), no temporary state file, no stale pin. Without it, every plugin
 * directory is. `scope.empty` receives the plugin directories found empty.
 */
export async function findLeftovers(
  paths: StorePaths,
  state: State | null,
  scope: CollectScope = {},
): Promise<Leftover[]> {
  const found: Leftover[] = [];
  for (const name of stagingNames(paths)) {
    const entry = join(stagingRoot(paths), name);
    if (!(await stagingInUse(name, entry)))
      found.push({ kind: isMark(name) ? 'mark' : 'staging', path: entry });
  }
  const temporary = await temporaryFiles(paths);
  if (state !== null) {
    const pinned = await pinnedTrees(paths);
    const whole =
      scope.visit === undefined || found.length > 0 || temporary.length > 0 || pinned.stale;
    const dirs = whole ? null : scope.visit!;
    found.push(...unreferencedTrees(paths, state, pinned, dirs, scope.empty));
    found.push(...unreferencedFileLists(paths, state, pinned, dirs));
  }
  found.push(...temporary);
  return found;
}

/** Where a collection looks (findLeftovers). */
export interface CollectScope {
  visit?: ReadonlySet<string>;
  empty?: Set<string>;
}

/**
 * D4: removes what findLeftovers finds, and plugin directories left empty; before a dead
 * transaction's mark, the data directories it lists that no record of `state` names (plugins.md
 * V3, collect-marker.ts). Contract: the caller holds the store lock and passes the state as it is
 * on disk now (after its own write), or a tree it just promoted would be collected; `visit`
 * (registry.md S41) holds at least the plugin directory of every tree the caller's transaction
 * promoted or stopped naming. Returns the paths removed, the data directories last.
 */
export async function collectGarbage(
  paths: StorePaths,
  state: State,
  visit?: ReadonlySet<string>,
): Promise<string[]> {
  try {
    // A plugin directory is left empty when it was found empty or every tree in it was collected
    // (the lock keeps others from filling it meanwhile): only those are tried, not every plugin's
    // (engine.md X10). One that is not empty after all holds installed versions and stays.
    const empty = new Set<string>();
    const found = await findLeftovers(
      paths,
      state,
      visit === undefined ? { empty } : { visit, empty },
    );
    const data: string[] = [];
    for (const leftover of found) {
      // The mark goes only once its data directories are gone: a crash meanwhile leaves it.
      if (leftover.kind === 'mark')
        data.push(...(await removeMarkedData(paths, state, leftover.path)));
      await removeLeftover(paths, leftover);
      if (leftover.kind === 'unreferenced-tree') empty.add(dirname(leftover.path));
    }
    for (const dir of [...empty].sort()) quietly(() => rmdirSync(dir));
    return [...found.map((leftover) => leftover.path), ...data];
  } catch (error) {
    throw toStoreError(error, paths.data, 'collect leftovers in');
  }
}

/**
 * plugins.md V3: deletes the data directories that the marks of dead transactions in staging list
 * (collect-marker.ts) and no record of `state` names, and leaves the marks, their lists emptied
 * (settleMarkedData), for the collection that walks every plugin directory. A transaction and an
 * uninstall run it before they change the state, so that a plugin installed again after an
 * uninstall was killed does not inherit the old data, and one a killed uninstall listed but never
 * removed keeps its data through an `uninstall --keep-data`. Contract as
 * collectGarbage's: the store lock held, `state` as it is on disk now. Returns the directories
 * deleted.
 */
export async function collectMarkedData(paths: StorePaths, state: State): Promise<string[]> {
  const removed: string[] = [];
  try {
    for (const name of stagingNames(paths)) {
      const entry = join(stagingRoot(paths), name);
      if (isMark(name) && !(await stagingInUse(name, entry)))
        removed.push(...(await settleMarkedData(paths, state, entry)));
    }
  } catch (error) {
    throw toStoreError(error, paths.data, 'collect leftovers in');
  }
  return removed;
}

/**
 * An unreferenced tree is first renamed into staging, then deleted, so a crash mid-delete never
 * leaves a half-deleted tree under a versioned name (promoteTree could otherwise meet it).
 */
async function removeLeftover(paths: StorePaths, leftover: Leftover): Promise<void> {
  if (leftover.kind === 'temporary-file' || leftover.kind === 'installed-files') {
    await unlink(leftover.path).catch(() => undefined);
    return;
  }
  let target = leftover.path;
  if (leftover.kind === 'unreferenced-tree') {
    target = join(makeOwnDir(stagingRoot(paths)), `collect-${uniqueHex(6)}`);
    await rename(leftover.path, target);
  }
  await rm(target, { recursive: true, force: true });
}

/**
 * Installed-files lists (installed-files.ts) of fingerprints that no plugin (user-wide or of a
 * project), pending update, previous tree or live session pin names any more. `dirs` (not null:
 * a collection after a transaction, S41): of a state read entry by entry (S42), only the lists of
 * the fingerprints the entries it read, set or deleted named as they were read are looked at,
 * since only those can have stopped being named.
 */
function unreferencedFileLists(
  paths: StorePaths,
  state: State,
  pinned: PinnedTrees,
  dirs: ReadonlySet<string> | null,
): Leftover[] {
  const dir = installedFilesDir(paths);
  if (isLinkedDir(dir)) return [];
  const candidates =
    dirs === null ? undefined : fieldStrings(state.plugins, 'fingerprint', 'superseded');
  const names =
    candidates === undefined
      ? listDir(dir)
      : [...new Set(candidates.map(installedFilesName))].filter((name) =>
          existsSync(join(dir, name)),
        );
  if (names.length === 0) return [];
  const keep = new Set<string>();
  for (const fingerprint of pinned.fingerprints) keep.add(installedFilesName(fingerprint));
  // Of a state read entry by entry, the entries never read are not parsed for this: their
  // fingerprints (active, pending and previous alike) are found in their bytes.
  const unread = fieldStrings(state.plugins, 'fingerprint', 'unread');
  for (const fingerprint of unread ?? []) keep.add(installedFilesName(fingerprint));
  for (const [, plugin] of unread === undefined ? eachRecord(state) : readRecords(state))
    for (const { fingerprint } of versionsOf(plugin)) keep.add(installedFilesName(fingerprint));
  return names
    .filter((name) => !keep.has(name))
    .map((name) => ({ kind: 'installed-files' as const, path: join(dir, name) }));
}

/**
 * Trees no record and no live pin names, in the plugin directories `dirs` (every one when null);
 * `empty` (when given) receives the plugin directories found empty.
 */
function unreferencedTrees(
  paths: StorePaths,
  state: State,
  pinned: PinnedTrees,
  dirs: ReadonlySet<string> | null,
  empty?: Set<string>,
): Leftover[] {
  // Only plugin directories of the store are ever listed: a record naming a path elsewhere (a
  // hand-edited state) never makes its directory one.
  const root = resolve(pluginsDir(paths));
  // The plugins root as a symlink is none hookpm made either: nothing is collected through it.
  if (isLinkedDir(root)) return [];
  // A plugin directory that is a symlink is none hookpm made: nothing is collected through it.
  const visit =
    dirs === null
      ? listDir(root, { links: false }).map((name) => join(root, name))
      : [...dirs]
          .map(normal)
          .filter((dir) => dirname(dir) === root && !isLinkedDir(dir))
          .sort();
  // Trees a live agent session still runs (engine.md R1) stay until the session lets them go.
  const referenced = namedTrees(recordsIn(state, dirs === null ? null : visit));
  for (const root of pinned.roots) referenced.add(normal(root));
  const found: Leftover[] = [];
  for (const versions of visit) {
    const names = listDir(versions);
    if (names.length === 0) empty?.add(versions);
    for (const name of names) {
      const tree = join(versions, name);
      if (!referenced.has(normal(tree))) found.push({ kind: 'unreferenced-tree', path: tree });
    }
  }
  return found;
}

/**
 * Temporary state files of interrupted writes, and lock debris (`.lock.<token>.tmp`,
 * `.lock.takeover-*`) of processes killed while taking the lock: a leftover when its writer is
 * dead or it is a minute old.
 */
async function temporaryFiles(paths: StorePaths): Promise<Leftover[]> {
  const prefix = durableTempPrefix(stateFile(paths));
  const lockName = basename(lockFile(paths));
  const found: Leftover[] = [];
  for (const name of listDir(paths.data)) {
    const file = join(paths.data, name);
    const debris =
      name.startsWith(`${lockName}.`) &&
      (name.endsWith('.tmp') || name.startsWith(`${lockName}.takeover-`));
    if (!name.startsWith(prefix) && !debris) continue;
    if (debris && !(await isDebrisOfDeadWriter(name, file))) continue;
    found.push({ kind: 'temporary-file', path: file });
  }
  return found;
}

/** Lock debris is named `<lock>.<pid>-<token>.tmp` (io/lock-record.ts) or is a takeover marker. */
async function isDebrisOfDeadWriter(name: string, file: string): Promise<boolean> {
  const pid = /\.(\d+)-[0-9a-f]+\.tmp$/.exec(name)?.[1];
  if (pid !== undefined && !isProcessAlive(Number(pid))) return true;
  const sighting = await readLockFile(file).catch(() => undefined);
  if (sighting === undefined) return false;
  const writer = sighting.holder;
  if (writer !== null && writer.hostname === hostname() && !isProcessAlive(writer.pid)) return true;
  return Date.now() - sighting.mtimeMs > LOCK_DEBRIS_AGE_MS;
}

/**
 * Staging trees are named `stage-<pid>-<random>` (layout.ts). Another process may be filling one
 * without holding the lock (a copy or a download takes time), so a tree whose process is alive is
 * in use until it is an hour old; anything else in staging is debris of a collection.
 */
async function stagingInUse(name: string, entry: string): Promise<boolean> {
  const pid = /^stage-(\d+)-/.exec(name)?.[1];
  if (pid === undefined || !isProcessAlive(Number(pid))) return false;
  const info = statSync(entry, { throwIfNoEntry: false });
  return info !== undefined && Date.now() - info.mtimeMs < STAGING_MAX_AGE_MS;
}

/** Names in the staging root; none when it is a symlink (own-dir.ts). */
function stagingNames(paths: StorePaths): string[] {
  return isLinkedDir(stagingRoot(paths)) ? [] : listDir(stagingRoot(paths));
}

/**
 * Names in `dir`, sorted; none when it does not exist or is not a directory. `links: false` leaves
 * out its symlinks, told by the one readdir (no lstat per name). Collection runs in every command
 * that changes the store, so its look-ups are synchronous (bench/install.bench.mjs).
 */
function listDir(dir: string, { links = true } = {}): string[] {
  try {
    if (links) return readdirSync(dir).sort();
    return readdirSync(dir, { withFileTypes: true })
      .filter((entry) => !entry.isSymbolicLink())
      .map((entry) => entry.name)
      .sort();
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw error;
  }
}
