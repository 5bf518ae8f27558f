/**
 * The watchdog of a host's handler groups (security.md "The runtime"): handlers die with their
 * host even when the host runs no code at its end (SIGKILL, the OOM killer, a crash of Node). A
 * tiny `/bin/sh` child, started at the host's first handler and then kept, reads lines from a pipe
 * whose writing end only the host holds: `+<pgid>` when a handler group starts, `-<pgid>` when it
 * is known dead or let go. When the host ends, however it ends, the kernel closes that end; the
 * watchdog reads end of input, SIGKILLs every group still listed, and exits.
 *
 * Contracts: the watchdog leads a session of its own, so a terminal's SIGINT or SIGHUP to the
 * host's group does not reach it; it holds none of the handlers' pipes, no working directory of
 * theirs and no environment. The host's end of the pipe is close-on-exec (libuv opens every pipe
 * so), so no handler inherits it and keeps the watchdog waiting. Nothing here keeps the host's
 * event loop alive. A watchdog that died, or could not be started (the machine short of files or
 * processes), is replaced at the next handler, with every live group; the handler runs meanwhile.
 * Not on Windows, which has no groups to kill (process-groups.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';

/**
 * POSIX sh: `live` is a space-delimited set of group ids. `read` returns non-zero at end of input,
 * which ends the loop; `kill -s KILL -- -<pgid>` signals the whole group (dash and bash alike).
 */
const SCRIPT = `live=' '
while IFS= read -r line; do
  case $line in
    +*) live="$live\${line#+} " ;;
    -*) g=\${line#-}; case $live in *" $g "*) live="\${live%%" $g "*} \${live#*" $g "}" ;; esac ;;
  esac
done
for g in $live; do kill -s KILL -- "-$g" 2>/dev/null; done
`;

/** The watchdog's $0: `ps` shows it, with the pid of the host it guards as its argument. */
export const WATCHDOG_NAME = 'hookpm-watchdog';

let watchdog: ChildProcess | null = null;

/**
 * Makes sure a watchdog runs, starting one (told every group in `live`) when there is none. Called
 * before a handler is spawned, so that no moment passes with a handler and no watchdog.
 */
export function ensureWatchdog(live: ReadonlySet<number>): void {
  if (watchdog !== null) return;
  watchdog = startWatchdog();
  if (live.size > 0) tell(watchdog, [...live].map((g) => `+${g}\n`).join(''));
}

/** Tells the watchdog that `pgid` now runs a handler (starting one first if there is none). */
export function watchGroup(pgid: number, live: ReadonlySet<number>): void {
  if (watchdog === null) ensureWatchdog(live);
  else tell(watchdog, `+${pgid}\n`);
}

/** Tells the watchdog to leave `pgid` alone from now on (its group is dead or was let go). */
export function unwatchGroup(pgid: number): void {
  if (watchdog !== null) tell(watchdog, `-${pgid}\n`);
}

/** The pid of this host's watchdog, or null while there is none (for `ps`, doctor and tests). */
export function watchdogPid(): number | null {
  return watchdog?.pid ?? null;
}

function startWatchdog(): ChildProcess | null {
  let child: ChildProcess;
  try {
    child = spawn('/bin/sh', ['-c', SCRIPT, WATCHDOG_NAME, String(process.pid)], {
      cwd: '/',
      env: {},
      detached: true, // setsid(): its own session and group
      stdio: ['pipe', 'ignore', 'ignore'],
    });
  } catch {
    return null; // tried again at the next handler
  }
  // A spawn that fails for want of files or processes (EMFILE, EAGAIN) does not throw: it reports
  // 'error' later and has no pid (nor, on EMFILE, pipes). The handler still runs and decides
  // (engine.md X8); the watchdog is tried again at the next handler.
  if (child.pid === undefined) {
    child.on('error', () => {});
    return null;
  }
  const forget = (): void => {
    if (watchdog === child) watchdog = null;
  };
  child.on('error', forget).on('exit', forget);
  child.stdin?.on('error', forget);
  child.unref();
  (child.stdin as Socket | null)?.unref();
  return child;
}

function tell(child: ChildProcess | null, lines: string): void {
  if (child === null || child.stdin == null || child.stdin.destroyed) return;
  child.stdin.write(lines);
}
