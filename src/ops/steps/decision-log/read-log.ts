import { HookpmError } from '../../../errors.js';
import { readDispatchLog } from '../../../store/dispatch-log.js';
import type { StorePaths } from '../../../store/store-paths.js';
import { readFailureReason, isRefusedFile } from '../../../io/read-regular-file.js';
import { checkLogLine } from './check-log-line.js';
import { ranHandlers, type LoggedDispatch } from './dispatch-line.js';
import { clip } from '../../../text/clip.js';

/** Which dispatches `hookpm log` and `hookpm stats` look at. */
export interface LogFilter {
  /** A plugin id (`name@registry`) or a bare name: dispatches that ran one of its handlers. */
  plugin?: string;
  event?: string;
  /** Epoch milliseconds: dispatches at or after it. */
  since?: number;
  /** Dispatches that matched no handler too (`hookpm log --all`); left out by default. */
  all?: boolean;
}

export interface ReadLog {
  entries: LoggedDispatch[];
  /** Lines that are not log entries (a line cut by a full disk, say): skipped. */
  damaged: number;
}

/**
 * Parses log text: one entry per line that is a JSON object of version 1 with the fields of a log
 * entry (check-log-line.ts); anything else counts as damaged and is skipped, so a line a full disk
 * cut short, or one edited by hand, never hides the rest or stops `log` and `stats`.
 */
export function parseLogText(text: string): ReadLog {
  const entries: LoggedDispatch[] = [];
  let damaged = 0;
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const entry = parseEntry(line);
    if (entry === null) damaged += 1;
    else entries.push(entry);
  }
  return { entries, damaged };
}

function parseEntry(line: string): LoggedDispatch | null {
  try {
    return checkLogLine(JSON.parse(line));
  } catch {
    // Not JSON, or nested past what the parser takes.
    return null;
  }
}

/** Whether `entry` passes `filter`. */
export function matchesFilter(entry: LoggedDispatch, filter: LogFilter): boolean {
  if (filter.all !== true && !ranHandlers(entry)) return false;
  if (filter.event !== undefined && entry.event !== filter.event) return false;
  if (filter.since !== undefined && !(Date.parse(entry.time) >= filter.since)) return false;
  if (filter.plugin !== undefined) {
    const wanted = filter.plugin;
    return entry.runs.some((r) => r.plugin !== null && isPlugin(r.plugin, wanted));
  }
  return true;
}

/** `guard@local` is named by `guard@local` and by `guard`. */
export function isPlugin(id: string, wanted: string): boolean {
  return id === wanted || (!wanted.includes('@') && id.startsWith(`${wanted}@`));
}

/**
 * Both generations of the log, filtered; E_IO when a log file exists but cannot be read, or is not
 * a regular file (a symlink, a FIFO, a device: refused at once, store/dispatch-log.ts).
 */
export function readLog(paths: StorePaths, filter: LogFilter = {}): ReadLog {
  let text: string;
  try {
    text = readDispatchLog(paths);
  } catch (error) {
    if (isRefusedFile(error)) throw error;
    const why = readFailureReason(error);
    throw new HookpmError('E_IO', `cannot read the decision log in ${paths.data}: ${why}`, {
      hint: 'Check the permissions of <data>/log/dispatch.jsonl.',
    });
  }
  const read = parseLogText(text);
  return { entries: read.entries.filter((e) => matchesFilter(e, filter)), damaged: read.damaged };
}

/**
 * `--since`: an ISO date or time (`2026-05-01`, `2026-05-01T12:00Z`) or an age (`30s`, `15m`,
 * `2h`, `7d`) before `now`. E_USAGE otherwise.
 */
export function parseSince(text: string, now: number): number {
  const age = /^(\d{1,9})(s|m|h|d)$/.exec(text);
  if (age !== null) {
    const unit = { s: 1e3, m: 60e3, h: 3600e3, d: 86400e3 }[age[2] as 's' | 'm' | 'h' | 'd'];
    return now - Number(age[1]) * unit;
  }
  const time = /^\d{4}-\d{2}-\d{2}/.test(text) ? Date.parse(text) : NaN;
  if (Number.isFinite(time)) return time;
  throw new HookpmError(
    'E_USAGE',
    `--since: expected a date or an age, found ${JSON.stringify(clip(text))}`,
    {
      hint: 'Pass an ISO date or time (2026-05-01, 2026-05-01T12:00Z) or an age (30m, 2h, 7d).',
    },
  );
}
