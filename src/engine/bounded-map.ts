/**
 * Maps `items` through `start` with at most `limit` calls pending at once (engine.md X1), starting
 * them in the order of `items`, one per turn of the event loop. The result holds every item's value
 * in the order of `items`, whatever order they settle in. `start` must not reject (the runner
 * never does: a handler's faults are facts of its HandlerRun); a rejection rejects the whole map,
 * as Promise.all would, and no further item starts.
 *
 * Why one start per turn: starting a handler is a synchronous spawn of tens of milliseconds on a
 * busy machine, and a handler's end is seen only when the event loop turns. Started in one loop,
 * thousands of spawns would hold every earlier handler's end unseen past its deadline (X6); one
 * per turn, a handler waits at most one spawn for the host to see it end.
 */
export function mapBounded<T, R>(
  items: readonly T[],
  limit: number,
  start: (item: T) => Promise<R>,
): Promise<R[]> {
  if (!(limit >= 1)) throw new Error(`Assertion failed: a bound of ${limit} runs nothing`);
  if (items.length === 0) return Promise.resolve([]);
  return new Promise((resolve, reject) => {
    const results = new Array<R>(items.length);
    let next = 0;
    let pending = 0;
    let settled = 0;
    let scheduled = false;
    let failed = false;
    const schedule = (): void => {
      if (scheduled || failed || next >= items.length || pending >= limit) return;
      scheduled = true;
      setImmediate(launch);
    };
    const done = (index: number, value: R): void => {
      results[index] = value;
      pending -= 1;
      settled += 1;
      if (settled === items.length) resolve(results);
      else schedule();
    };
    const fail = (error: unknown): void => {
      failed = true;
      reject(error);
    };
    function launch(): void {
      scheduled = false;
      if (failed || next >= items.length || pending >= limit) return;
      const index = next;
      next += 1;
      pending += 1;
      start(items[index] as T).then((value) => done(index, value), fail);
      schedule();
    }
    launch();
  });
}
