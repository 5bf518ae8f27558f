import type { ChildProcess } from 'node:child_process';

/**
 * How long a child's pipes are still read after it exits. A process it left running (a helper
 * started with `&` and no redirection, a credential helper's daemon in a session of its own) may
 * hold them open for any time; what the child itself wrote is in them when it exits, read well
 * within this.
 */
export const AFTER_EXIT_READ_MS = 1_000;

/**
 * Calls `letGo` AFTER_EXIT_READ_MS after `child` exits unless its 'close' (both pipes shut) comes
 * first: there the caller stops reading the pipes. What reached the pipes within that time is read
 * before `letGo`, even when the host was busy as it ended: timers run before the event loop polls
 * for I/O, so the timer only asks for `letGo` after the next poll (setImmediate), never before
 * output already waiting in the pipes is read. Returns a cancel, for a caller that settles another
 * way (a kill).
 */
export function letGoAfterExit(child: ChildProcess, letGo: () => void): () => void {
  let timer: NodeJS.Timeout | undefined;
  let afterPoll: NodeJS.Immediate | undefined;
  const cancel = (): void => {
    clearTimeout(timer);
    clearImmediate(afterPoll);
  };
  child.on('exit', () => {
    timer = setTimeout(() => {
      afterPoll = setImmediate(letGo);
    }, AFTER_EXIT_READ_MS);
  });
  child.on('close', cancel);
  return cancel;
}
