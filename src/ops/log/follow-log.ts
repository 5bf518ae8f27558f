import { setTimeout as sleep } from 'node:timers/promises';
import { readDispatchLogSince, type LogPosition } from '../../store/dispatch-log.js';
import type { StorePaths } from '../../store/store-paths.js';
import type { LoggedDispatch } from '../steps/decision-log/dispatch-line.js';
import { matchesFilter, parseLogText, type LogFilter } from '../steps/decision-log/read-log.js';

/** How often `hookpm log --follow` looks for new lines. */
export const FOLLOW_INTERVAL_MS = 200;

/**
 * `hookpm log --follow`: calls `onEntry` with each dispatch logged from now on that passes
 * `filter`, across rotations, until `signal` aborts (then resolves). Damaged lines are skipped.
 */
export async function followLog(
  paths: StorePaths,
  filter: LogFilter,
  onEntry: (entry: LoggedDispatch) => void,
  signal: AbortSignal,
): Promise<void> {
  // Null: no log file yet; one made later is read from its start.
  let position: LogPosition | null = readDispatchLogSince(paths, null).position;
  while (!signal.aborted) {
    const next = readDispatchLogSince(paths, position ?? { ino: -1, offset: 0 });
    position = next.position;
    for (const entry of parseLogText(next.text).entries)
      if (matchesFilter(entry, filter)) onEntry(entry);
    await sleep(FOLLOW_INTERVAL_MS, undefined, { signal }).catch(() => undefined);
  }
}
