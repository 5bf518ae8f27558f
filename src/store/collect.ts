import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, rm, rmdir, stat, unlink } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { durableTempPrefix } from '../io/durable-write.js';
import { errnoCode, toStoreError } from '../io/fs-error.js';
import { isStale, readLockFile } from '../io/lock-record.js';
import { lockFile, pluginsDir, stagingRoot, stateFile } from './paths.js';
import type { StorePaths } from './paths.js';
import type { State } from './state-schema.js';

/**
 * D4: removes what interrupted or superseded transactions left behind: staging trees of dead
 * processes in `<data>/.staging/`, every installed tree that no plugin of `state` names (as its active `path` or
 * its pending update's), plugin directories left empty, temporary state files and lock debris.
 * Contract: the caller holds the store lock and passes the state as it is on disk now (after its
 * own write), or a tree it just promoted would be collected. Returns the paths removed.
 */
export async function collectGarbage(paths: StorePaths, state: State): Promise<string[]> {
  const removed: string[] = [];
  try {
    removed.push(...(await collectStaging(paths)));
    removed.push(...(await collectTrees(paths, referencedTrees(state))));
    removed.push(...(await collectStateTemps(paths)));
  } catch (error) {
    throw toStoreError(error, paths.data, 'collect leftovers in');
  }
  return removed;
}

function referencedTrees(state: State): Set<string> {
  const referenced = new Set<string>();
  for (const plugin of Object.values(state.plugins)) {
    referenced.add(resolve(plugin.path));
    if (plugin.pending !== null) referenced.add(resolve(plugin.pending.path));
  }
  return referenced;
}

/** A staging tree of a live process older than this belongs to a stuck transaction. */
const STAGING_MAX_AGE_MS = 60 * 60_000;

/**
 * Staging trees are named `stage-<pid>-<random>` (layout.ts). Another process may be filling one
 * without holding the lock (a copy or a download takes time), so only trees whose process is gone,
 * or that are an hour old, are collected; anything else in staging is debris of a collection.
 */
async function collectStaging(paths: StorePaths): Promise<string[]> {
  const root = stagingRoot(paths);
  const removed: string[] = [];
  for (const name of await listDir(root)) {
    const entry = join(root, name);
    if (await stagingInUse(name, entry)) continue;
    await rm(entry, { recursive: true, force: true });
    removed.push(entry);
  }
  return removed;
}

async function stagingInUse(name: string, entry: string): Promise<boolean> {
  const pid = /^stage-(\d+)-/.exec(name)?.[1];
  if (pid === undefined || !processAlive(Number(pid))) return false;
  const info = await stat(entry).catch(() => undefined);
  return info !== undefined && Date.now() - info.mtimeMs < STAGING_MAX_AGE_MS;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errnoCode(error) === 'EPERM';
  }
}

/**
 * An unreferenced tree is first renamed into staging, then deleted, so a crash mid-delete never
 * leaves a half-deleted tree under a versioned name (promoteTree could otherwise meet it).
 */
async function collectTrees(paths: StorePaths, referenced: ReadonlySet<string>): Promise<string[]> {
  const root = pluginsDir(paths);
  const removed: string[] = [];
  for (const plugin of await listDir(root)) {
    const versions = join(root, plugin);
    for (const name of await listDir(versions)) {
      const tree = join(versions, name);
      if (referenced.has(resolve(tree))) continue;
      const aside = join(stagingRoot(paths), `collect-${randomBytes(6).toString('hex')}`);
      await mkdir(stagingRoot(paths), { recursive: true });
      await rename(tree, aside);
      await rm(aside, { recursive: true, force: true });
      removed.push(tree);
    }
    await rmdir(versions).catch(() => undefined);
  }
  return removed;
}

/** A live process keeps lock debris for milliseconds; older debris belongs to nobody. */
const LOCK_DEBRIS_AGE_MS = 60_000;

/**
 * Temporary state files of interrupted writes, and lock debris (`.lock.<token>.tmp`,
 * `.lock.takeover-*`) of processes killed while taking the lock: removed when its writer is dead
 * or it is a minute old (a live process keeps such a file for milliseconds).
 */
async function collectStateTemps(paths: StorePaths): Promise<string[]> {
  const prefix = durableTempPrefix(stateFile(paths));
  const lockName = basename(lockFile(paths));
  const removed: string[] = [];
  for (const name of await listDir(paths.data)) {
    const file = join(paths.data, name);
    const debris =
      name.startsWith(`${lockName}.`) &&
      (name.endsWith('.tmp') || name.startsWith(`${lockName}.takeover-`));
    if (!name.startsWith(prefix) && !debris) continue;
    if (debris) {
      const sighting = await readLockFile(file).catch(() => undefined);
      if (sighting === undefined || !isStale(sighting, LOCK_DEBRIS_AGE_MS)) continue;
    }
    await unlink(file).catch(() => undefined);
    removed.push(file);
  }
  return removed;
}

/** Names in `dir`; none when it does not exist or is not a directory. */
async function listDir(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw error;
  }
}
