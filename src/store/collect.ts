import { randomBytes } from 'node:crypto';
import { readdirSync, rmdirSync, statSync } from 'node:fs';
import { mkdir, rename, rm, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { durableTempPrefix } from '../io/durable-write.js';
import { errnoCode, quietly, toStoreError } from '../io/fs-error.js';
import { isProcessAlive, readLockFile } from '../io/lock-record.js';
import { lockFile, pluginsDir, stagingRoot, stateFile } from './paths.js';
import { installedFilesDir, installedFilesName } from './installed-files.js';
import { pinnedFingerprints, pinnedRoots } from './session-pins.js';
import type { StorePaths } from './store-paths.js';
import type { State } from './state/state-schema.js';

export type LeftoverKind = 'staging' | 'unreferenced-tree' | 'temporary-file' | 'installed-files';

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
 * `state` (user-wide or of a project) names as its active `path` or its pending update's and no live session pin runs (skipped
 * when `state` is null, that is unknown), temporary state files and lock debris of dead writers.
 */
export async function findLeftovers(
  paths: StorePaths,
  state: State | null,
  emptyPluginDirs?: Set<string>,
): Promise<Leftover[]> {
  const found: Leftover[] = [];
  for (const name of await listDir(stagingRoot(paths))) {
    const entry = join(stagingRoot(paths), name);
    if (!(await stagingInUse(name, entry))) found.push({ kind: 'staging', path: entry });
  }
  if (state !== null) found.push(...(await unreferencedTrees(paths, state, emptyPluginDirs)));
  if (state !== null) found.push(...(await unreferencedFileLists(paths, state)));
  found.push(...(await temporaryFiles(paths)));
  return found;
}

/**
 * D4: removes what findLeftovers finds, and plugin directories left empty. Contract: the caller
 * holds the store lock and passes the state as it is on disk now (after its own write), or a tree
 * it just promoted would be collected. Returns the paths removed.
 */
export async function collectGarbage(paths: StorePaths, state: State): Promise<string[]> {
  try {
    // A plugin directory is left empty when it was found empty or every tree in it was collected
    // (the lock keeps others from filling it meanwhile): only those are tried, not every plugin's
    // (engine.md X10). One that is not empty after all holds installed versions and stays.
    const empty = new Set<string>();
    const found = await findLeftovers(paths, state, empty);
    for (const leftover of found) {
      await removeLeftover(paths, leftover);
      if (leftover.kind === 'unreferenced-tree') empty.add(dirname(leftover.path));
    }
    for (const dir of [...empty].sort()) quietly(() => rmdirSync(dir));
    return found.map((leftover) => leftover.path);
  } catch (error) {
    throw toStoreError(error, paths.data, 'collect leftovers in');
  }
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
    target = join(stagingRoot(paths), `collect-${randomBytes(6).toString('hex')}`);
    await mkdir(stagingRoot(paths), { recursive: true });
    await rename(leftover.path, target);
  }
  await rm(target, { recursive: true, force: true });
}

/**
 * Installed-files lists (installed-files.ts) of fingerprints that no plugin (user-wide or of a
 * project), pending update or live session pin names any more.
 */
async function unreferencedFileLists(paths: StorePaths, state: State): Promise<Leftover[]> {
  const dir = installedFilesDir(paths);
  const names = await listDir(dir);
  if (names.length === 0) return [];
  const keep = new Set<string>();
  const add = (fingerprint: string): void => {
    keep.add(installedFilesName(fingerprint));
  };
  // Projects (docs/guides/projects.md): the records of every project too; they share the store's
  // trees.
  const projects = Object.values(state.projects ?? {}).flatMap((p) => Object.values(p.plugins));
  for (const plugin of [...Object.values(state.plugins), ...projects]) {
    add(plugin.fingerprint);
    if (plugin.pending != null) add(plugin.pending.fingerprint);
    if (plugin.previous !== undefined) add(plugin.previous.fingerprint);
  }
  for (const fingerprint of await pinnedFingerprints(paths)) add(fingerprint);
  return names
    .filter((name) => !keep.has(name))
    .map((name) => ({ kind: 'installed-files' as const, path: join(dir, name) }));
}

/** Trees no record names; `empty` (when given) receives the plugin directories found empty. */
async function unreferencedTrees(
  paths: StorePaths,
  state: State,
  empty?: Set<string>,
): Promise<Leftover[]> {
  // Trees a live agent session still runs (engine.md R1) stay until the session lets them go.
  const referenced = new Set<string>([...(await pinnedRoots(paths))].map((root) => resolve(root)));
  // Projects (docs/guides/projects.md): the store is shared by every project, so a project's trees
  // are referenced too.
  const projects = Object.values(state.projects ?? {}).flatMap((p) => Object.values(p.plugins));
  for (const plugin of [...Object.values(state.plugins), ...projects]) {
    referenced.add(resolve(plugin.path));
    if (plugin.pending !== null) referenced.add(resolve(plugin.pending.path));
    // `hookpm rollback`'s tree stays until the next update replaces it.
    if (plugin.previous !== undefined) referenced.add(resolve(plugin.previous.path));
  }
  const found: Leftover[] = [];
  for (const plugin of await listDir(pluginsDir(paths))) {
    const versions = join(pluginsDir(paths), plugin);
    const names = await listDir(versions);
    if (names.length === 0) empty?.add(versions);
    for (const name of names) {
      const tree = join(versions, name);
      if (!referenced.has(resolve(tree))) found.push({ kind: 'unreferenced-tree', path: tree });
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
  for (const name of await listDir(paths.data)) {
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

/**
 * Names in `dir`, sorted; none when it does not exist or is not a directory. Collection runs in
 * every command that changes the store, so its look-ups are synchronous (bench/install.bench.mjs).
 */
async function listDir(dir: string): Promise<string[]> {
  try {
    return readdirSync(dir).sort();
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw error;
  }
}
