import { fstatSync, lstatSync, mkdirSync, rmSync } from 'node:fs';
import type { BigIntStats } from 'node:fs';
import { dirname, join } from 'node:path';
import { statsIdentity } from '../../io/file-identity.js';
import { readRegularText } from '../../io/read-regular-file.js';
import { replaceFile } from '../replace-file.js';
import { stateFile } from '../home-paths.js';
import type { StorePaths } from '../store-paths.js';

/*
 * registry.md S42: the seal says which state file hookpm wrote last, by its identity (device,
 * inode, size, modification and change times in nanoseconds, as S33's list cache): while the state
 * file has that identity it holds bytes hookpm serialised and checked, in its own layout, so a
 * transaction may read it entry by entry. Any other change to the file (a hand edit, an older
 * hookpm, a copy) changes its identity, and the file is then read and checked whole, as before.
 * The seal is a cache, kept in `<cache>/state-seal`, and trusted for nothing more: a missing,
 * unreadable or stale one (a crash between the state's write and its seal's) only means a whole
 * read. It is written after the state is durable, by a rename, without an fsync.
 */

/** The layout (state-lines.ts) the seal vouches for, first in it. */
const LAYOUT = 'lines-1';

function sealFile(paths: StorePaths): string {
  return join(paths.cache, 'state-seal');
}

function identityOf(s: BigIntStats): string {
  return `${LAYOUT} ${statsIdentity(s)}`;
}

/** The identity of the open file `fd`, as the seal keeps it. */
export function fileIdentity(fd: number): string {
  return identityOf(fstatSync(fd, { bigint: true }));
}

/** The identity of the state file now, or null when it cannot be statted. */
export function stateIdentity(paths: StorePaths): string | null {
  try {
    return identityOf(lstatSync(stateFile(paths), { bigint: true }));
  } catch {
    return null;
  }
}

/** Whether `identity` (of the state file as read) is the one hookpm sealed last. */
export function isSealed(paths: StorePaths, identity: string): boolean {
  try {
    return readRegularText(sealFile(paths), { maxBytes: 256 }) === identity;
  } catch {
    return false;
  }
}

/**
 * Removes the seal, for a state file hookpm has just removed (restoreState after a first install
 * that failed), so the store is left as it was; never throws (a stale seal means a whole read).
 */
export function unsealState(paths: StorePaths): void {
  try {
    rmSync(sealFile(paths), { force: true });
  } catch {
    // A cache: a seal naming no file's identity vouches for nothing.
  }
}

/**
 * Seals the state file hookpm has just written (the caller holds the store lock); never throws (a
 * seal not written means a whole read). An edit in the instant between the write and this would
 * be sealed with it: the seal guards against a file changed since, as S33's cache does.
 */
export function sealState(paths: StorePaths): void {
  const identity = stateIdentity(paths);
  if (identity === null) return;
  try {
    mkdirSync(dirname(sealFile(paths)), { recursive: true });
    replaceFile(sealFile(paths), identity);
  } catch {
    // A cache: the next transaction reads the state whole.
  }
}
