/**
 * The ordering rule of a session (docs/reference/rules/cli.md#session): dispatches are independent
 * and run at once; a reload waits for the dispatches in flight and applies to the ones that come
 * after it.
 */
export interface SessionGate {
  /**
   * Starts `task` now, or, when a reload is queued or running, right after it. The task counts as
   * in flight until its promise settles. `task` must not throw synchronously.
   */
  run<T>(task: () => Promise<T>): Promise<T>;
  /**
   * Starts `task` once every earlier exclusive task is done and nothing is in flight; tasks passed
   * to run() after this call wait for it. A rejection is the caller's; the gate moves on.
   */
  exclusive<T>(task: () => Promise<T>): Promise<T>;
  /** Resolves when no task is in flight or queued (a shutdown waits for this). */
  idle(): Promise<void>;
}

const noop = (): void => {};

export function createSessionGate(): SessionGate {
  let active = 0;
  let waiters: (() => void)[] = [];
  // Settles (never rejects) when the last exclusive task queued so far is done; null when none is.
  let barrier: Promise<void> | null = null;

  const release = (): void => {
    active -= 1;
    if (active > 0 || waiters.length === 0) return;
    const wake = waiters;
    waiters = [];
    for (const resolve of wake) resolve();
  };

  const track = <T>(promise: Promise<T>): Promise<T> => {
    active += 1;
    promise.then(release, release);
    return promise;
  };

  const noneActive = (): Promise<void> =>
    active === 0 ? Promise.resolve() : new Promise((resolve) => waiters.push(resolve));

  return {
    run(task) {
      // Callbacks on one promise run in the order they were added, so queued tasks keep their order.
      if (barrier === null) return track(task());
      return barrier.then(() => track(task()));
    },
    exclusive(task) {
      const result = (barrier ?? Promise.resolve()).then(noneActive).then(task);
      const done = result.then(noop, noop);
      barrier = done;
      void done.then(() => {
        if (barrier === done) barrier = null;
      });
      return result;
    },
    async idle() {
      while (barrier !== null || active > 0) {
        await barrier;
        await noneActive();
      }
    },
  };
}
