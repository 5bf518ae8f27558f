import type { LockHolder } from './lock-record.js';

/** What a command waiting for a held lock is told (docs/design/decisions.md#where-the-rules-are-silent). */
export interface LockWait {
  lockPath: string;
  /** null when the lock file is not readable as a record. */
  holder: LockHolder | null;
  /** How long it has waited so far. */
  waitedMs: number;
}

/** How long a lock is waited for in silence before the listener hears of it. */
export const LOCK_WAIT_NOTICE_MS = 1000;

let listener: ((wait: LockWait) => void) | undefined;

/**
 * Sets the one process-wide listener told, once per acquisition, that a lock has been waited for
 * LOCK_WAIT_NOTICE_MS (the CLI prints it on stderr; a library host sets none, or its own). A
 * dependency-free module so that the CLI can set it at start-up without loading the lock code.
 */
export function setLockWaitListener(fn: ((wait: LockWait) => void) | undefined): void {
  listener = fn;
}

export function notifyLockWait(wait: LockWait): void {
  listener?.(wait);
}
