import { mkdirSync, renameSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { HookpmError } from '../errors.js';
import { clip } from '../text/clip.js';
import { fileErrorOf, quietly, type FileOwner } from './fs-error.js';
import {
  createExclusive,
  isLockDirectory,
  isStale,
  processStartOf,
  lockTempFile,
  lockTokenOf,
  readLockFile,
} from './lock-record.js';
import type { LockHolder, LockSighting } from './lock-record.js';
import { LOCK_WAIT_NOTICE_MS, notifyLockWait } from './lock-wait.js';
import { uniqueHex } from './unique-hex.js';

export type { LockHolder } from './lock-record.js';

export interface LockOptions {
  /** How long to wait for a held lock before E_LOCKED (default 30 s). */
  waitMs?: number;
  /** A lock not refreshed for this long is recovered even if its holder looks alive (default 60 s). */
  staleMs?: number;
  /** Called once when the lock is held by someone else and we start waiting. */
  onWait?: (holder: LockHolder) => void;
  /** What the lock guards, for E_LOCKED's message (default: the store). */
  guards?: string;
  /**
   * Whose directory the lock file is in (FileOwner; default the store's): a lock file that cannot
   * be made in a user's directory is E_IO naming it, never E_STORE_READONLY.
   */
  owner?: FileOwner;
}

/** Releases the lock; removes the lock file only if it still holds our token. */
export type ReleaseLock = () => Promise<void>;

const MAX_POLL_MS = 200;

/** This process's start time for its lock records (processStartOf), read once. */
let ownStart: string | null | undefined;

/**
 * registry.md D3: takes the cross-process lock at `lockPath` (a file holding {pid, hostname,
 * startedAt, token, processStart, command}), waiting with bounded polling; after
 * LOCK_WAIT_NOTICE_MS of waiting the lock-wait listener is told who holds it (lock-wait.ts). A lock whose holder is dead, or that has not been
 * refreshed for `staleMs`, is taken over (see takeOver). Not reentrant: a process that holds the lock
 * and asks again waits for itself and gets E_LOCKED. Errors: E_LOCKED naming the holder,
 * E_STORE_READONLY (for a lock in a user's directory, `owner`, E_IO naming it) / E_NOSPC / E_IO
 * when the lock file cannot be written.
 */
export async function acquireLock(lockPath: string, opts: LockOptions = {}): Promise<ReleaseLock> {
  const waitMs = opts.waitMs ?? 30_000;
  const staleMs = opts.staleMs ?? 60_000;
  const record: LockHolder = {
    pid: process.pid,
    hostname: hostname(),
    startedAt: new Date().toISOString(),
    token: uniqueHex(16),
  };
  ownStart ??= processStartOf(process.pid);
  if (ownStart !== null) record.processStart = ownStart;
  record.command = ownCommand();
  const startMs = Date.now();
  const deadline = startMs + waitMs;
  let delay = 10;
  let waiting = false;
  let told = false;
  try {
    mkdirSync(dirname(lockPath), { recursive: true });
    for (;;) {
      if (await createExclusive(lockPath, record)) return hold(lockPath, record, staleMs);
      const current = await readLockFile(lockPath);
      if (current === undefined) continue;
      if (isStale(current, staleMs) && (await takeOver(lockPath, current, record, staleMs))) {
        return hold(lockPath, record, staleMs);
      }
      const left = deadline - Date.now();
      if (left <= 0) throw lockedError(lockPath, current, waitMs, opts.guards);
      if (!waiting && current.holder !== null) opts.onWait?.(current.holder);
      waiting = true;
      const waitedMs = Date.now() - startMs;
      if (!told && waitedMs >= LOCK_WAIT_NOTICE_MS) {
        told = true;
        notifyLockWait({ lockPath, holder: current.holder, waitedMs });
      }
      await sleep(Math.min(delay, left));
      delay = Math.min(delay * 2, MAX_POLL_MS);
    }
  } catch (error) {
    throw fileErrorOf(opts.owner ?? 'store')(error, lockPath, 'lock');
  }
}

/**
 * This process's command line as a waiting command shows it: the program's name without its
 * directory and `.js` (`hookpm install guard`), then its arguments, at most 200 characters.
 */
function ownCommand(): string {
  const program = basename(process.argv[1] ?? process.argv0).replace(/\.[cm]?js$/, '');
  const text = [program, ...process.argv.slice(2)].join(' ');
  return text.length <= 200 ? text : `${text.slice(0, 199)}…`;
}

/** Runs `fn` while holding the lock at `lockPath`; the lock is released however `fn` ends. */
export async function withLock<T>(
  lockPath: string,
  fn: () => Promise<T>,
  opts?: LockOptions,
): Promise<T> {
  const release = await acquireLock(lockPath, opts);
  try {
    return await fn();
  } finally {
    await release();
  }
}

/**
 * Replaces the stale lock `stale` with ours. Only the process that exclusively creates the takeover
 * marker `<lock>.takeover-<identity>` may do it, so several contenders never both recover the same
 * lock; the winner re-reads the lock, and replaces it (rename over, so the lock path never goes
 * missing) only if it is still the instance judged stale. A marker whose creator died is itself
 * taken over through a marker keyed by its identity, a few levels deep at most.
 */
async function takeOver(
  lockPath: string,
  stale: LockSighting,
  record: LockHolder,
  staleMs: number,
): Promise<boolean> {
  const passed: string[] = [];
  let key = stale.identity;
  for (let depth = 0; depth < 4; depth += 1) {
    const marker = `${lockPath}.takeover-${key}`;
    if (await createExclusive(marker, record)) {
      let replaced = false;
      try {
        replaced = await replaceIfUnchanged(lockPath, stale, record);
        return replaced;
      } finally {
        // Only our own marker, and on success the markers of dead recoverers we went past: a
        // marker a live contender holds is never removed, or a third could enter beside it.
        const done = replaced ? [marker, ...passed] : [marker];
        for (const file of done) quietly(() => unlinkSync(file));
      }
    }
    const other = await readLockFile(marker);
    if (other === undefined || !isStale(other, staleMs)) return false;
    passed.push(marker);
    key = other.identity;
  }
  return false;
}

async function replaceIfUnchanged(
  lockPath: string,
  stale: LockSighting,
  record: LockHolder,
): Promise<boolean> {
  const again = await readLockFile(lockPath);
  if (again === undefined || again.identity !== stale.identity) return false;
  if (isLockDirectory(lockPath)) throw directoryError(lockPath);
  const temp = lockTempFile(lockPath, record);
  try {
    writeFileSync(temp, JSON.stringify(record), { mode: 0o644 });
    renameSync(temp, lockPath);
  } catch (error) {
    // A failed takeover leaves nothing of ours behind: the store stays as it was.
    quietly(() => unlinkSync(temp));
    throw error;
  }
  return true;
}

/**
 * A directory where the lock file goes is none hookpm made (its lock is a file) and is never
 * removed by it, however stale it looks: the user is told to remove it.
 */
function directoryError(lockPath: string): HookpmError {
  return new HookpmError('E_IO', `cannot lock ${clip(lockPath)}: it is a directory`, {
    file: lockPath,
    hint: `hookpm's lock is a file, never a directory: remove the directory ${clip(lockPath)} (after checking that nothing in it is needed) and run the command again.`,
  });
}

/** Starts refreshing the lock's mtime (so a live holder is never judged stale) and returns release. */
function hold(lockPath: string, record: LockHolder, staleMs: number): ReleaseLock {
  const refresh = async (): Promise<void> => {
    if (lockTokenOf(lockPath) !== record.token) return;
    const now = new Date();
    // Gone or unwritable: the next refresh tries again; release does not need it.
    quietly(() => utimesSync(lockPath, now, now));
  };
  const timer = setInterval(() => void refresh(), Math.max(Math.floor(staleMs / 4), 25));
  timer.unref();
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    clearInterval(timer);
    if (lockTokenOf(lockPath) === record.token) quietly(() => unlinkSync(lockPath));
  };
}

function lockedError(
  lockPath: string,
  current: LockSighting,
  waitMs: number,
  guards = 'the store',
): HookpmError {
  const holder = current.holder;
  const who =
    holder === null
      ? 'an unknown process'
      : `process ${holder.pid}${holder.command === undefined ? '' : ` (${holder.command})`} on ${holder.hostname} since ${holder.startedAt}`;
  const waited = waitMs < 1000 ? `${waitMs} ms` : `${Math.round(waitMs / 1000)} s`;
  return new HookpmError(
    'E_LOCKED',
    `${guards} is locked by ${who}; waited ${waited} for ${lockPath}`,
    {
      lockPath,
      pid: holder?.pid,
      hint: 'Wait for the other hookpm command to finish and try again. A lock left by a process that no longer runs is recovered automatically.',
    },
  );
}
