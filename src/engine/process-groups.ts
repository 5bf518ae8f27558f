/**
 * The live handler process groups of this host (engine.md X4, security.md "The runtime"): every
 * handler runs as the leader of its own group, so a group id is the handler's pid and
 * `process.kill(-pgid)` reaches the handler and everything it forked. The host kills them when it
 * ends in a way it sees (process 'exit', installExitCleanup's signals); the watchdog
 * (group-watchdog.ts) kills them when it ends in a way it cannot see (SIGKILL).
 */
import type { ChildProcess } from 'node:child_process';
import { ensureWatchdog, unwatchGroup, watchGroup } from './group-watchdog.js';

/** X6: time between SIGTERM and SIGKILL to the group, and the most the runner waits after SIGKILL. */
export const KILL_GRACE_MS = 500;
/** Windows has no process groups to signal (X4); the runner and the killing both ask. */
export const IS_WINDOWS = process.platform === 'win32';

const liveGroups = new Set<number>();

let exitListener = false;
let signalListeners = false;

/**
 * Called by the runner just before it spawns a handler: starts this host's watchdog if none runs
 * (group-watchdog.ts), so a host killed outright at any moment afterwards takes the handler along.
 */
export function prepareGroup(): void {
  if (!IS_WINDOWS) ensureWatchdog(liveGroups);
}

/**
 * Called by the runner once a handler has spawned. The first call also kills every live group on
 * process 'exit', so that no embedding host leaves handlers behind when it ends normally or calls
 * process.exit(), and starts the watchdog, which kills them when the host is killed outright;
 * surviving a catchable fatal signal needs installExitCleanup.
 */
export function registerGroup(pgid: number): void {
  listenForExit();
  liveGroups.add(pgid);
  if (!IS_WINDOWS) watchGroup(pgid, liveGroups);
}

function listenForExit(): void {
  if (exitListener) return;
  exitListener = true;
  process.on('exit', killAllHandlers);
}

/** Called by the runner once the group is known to be dead (or abandoned after a normal exit). */
export function unregisterGroup(pgid: number): void {
  if (liveGroups.delete(pgid)) unwatchGroup(pgid);
}

/** The registered group ids, for diagnostics and tests. */
export function liveHandlerGroups(): number[] {
  return [...liveGroups];
}

/**
 * Sends `signal` to a whole process group. Never throws: a group that is already gone (ESRCH) or
 * cannot be signalled is simply skipped. On Windows, where groups cannot be signalled,
 * terminateGroup falls back to killing the child itself.
 */
export function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * X6: SIGTERM to the handler's group; after KILL_GRACE_MS, SIGKILL to the group, which is then
 * unregistered, and `killed` is called. Where the group cannot be signalled, the child itself is.
 */
export function terminateGroup(child: ChildProcess, pgid: number, killed: () => void): void {
  signalHandler(child, pgid, 'SIGTERM');
  setTimeout(() => {
    signalHandler(child, pgid, 'SIGKILL');
    unregisterGroup(pgid);
    killed();
  }, KILL_GRACE_MS);
}

function signalHandler(child: ChildProcess, pgid: number, signal: NodeJS.Signals): void {
  if (IS_WINDOWS || !signalGroup(pgid, signal)) child.kill(signal);
}

/** SIGKILLs every live handler group, synchronously (safe inside a process 'exit' listener). */
export function killAllHandlers(): void {
  for (const pgid of liveGroups) {
    signalGroup(pgid, 'SIGKILL');
    unwatchGroup(pgid); // a long-lived host must not have a reused pid killed at its end
  }
  liveGroups.clear();
}

const EXIT_SIGNALS = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 } as const;

/**
 * Makes sure no handler outlives the host (security.md: "`hookpm session` killed with SIGTERM while
 * handlers run: every handler's process group is killed before it exits"). On process 'exit' the
 * live groups are killed; on SIGTERM, SIGINT and SIGHUP they are killed and the host exits with the
 * conventional code 128 + signal number. Idempotent: a second call does nothing.
 */
export function installExitCleanup(): void {
  listenForExit();
  if (signalListeners) return;
  signalListeners = true;
  for (const [signal, number] of Object.entries(EXIT_SIGNALS)) {
    process.once(signal as NodeJS.Signals, () => {
      killAllHandlers();
      process.exit(128 + number);
    });
  }
}
