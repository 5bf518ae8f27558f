/**
 * Maps `items` through `start` with at most `limit` calls pending at once (engine.md X1), starting
 * them in the order of `items`: the first `limit` at once, each later one in a turn of the event
 * loop of its own, once a slot is free. The result holds every item's value in the order of
 * `items`, whatever order they settle in. `start` must not reject (the runner never does: a
 * handler's faults are facts of its HandlerRun); a rejection rejects the whole map, as Promise.all
 * would, and no further item starts.
 *
 * Why later ones start one per turn: starting a handler is a synchronous spawn of tens of
 * milliseconds on a busy machine, and a handler's end is seen only when the event loop turns.
 * Started together as slots free up, many spawns would keep the ends of running handlers unseen;
 * one per turn, a handler waits at most one spawn for the host to see it end. Up to `limit` items
 * start as Promise.all would start them, so a dispatch of a few handlers pays nothing for this.
 */
export function mapBounded<T, R>(
  items: readonly T[],
  limit: number,
  start: (item: T) => Promise<R>,
): Promise<R[]> {
  if (!(limit >= 1)) throw new Error(`Assertion failed: a bound of ${limit} runs nothing`);
  if (items.length <= limit) return Promise.all(items.map(start));
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
    const startNext = (): void => {
      const index = next;
      next += 1;
      pending += 1;
      start(items[index] as T).then((value) => done(index, value), fail);
    };
    function launch(): void {
      scheduled = false;
      if (failed || next >= items.length || pending >= limit) return;
      startNext();
      schedule();
    }
    for (let i = 0; i < limit; i += 1) startNext();
  });
}
