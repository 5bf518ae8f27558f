import type { StorePaths } from '../../store/store-paths.js';
import { computeStats, type HandlerStats } from '../steps/decision-log/hook-stats.js';
import { readLog } from '../steps/decision-log/read-log.js';
import { clip } from '../../text/clip.js';
import { okCheck, plural, problem, type DoctorCheck } from './check.js';
import { shellWord } from '../../text/shell-word.js';

/** How far back doctor reads the decision log. */
export const HEALTH_WINDOW_MS = 7 * 86400e3;
/** A handler with fewer runs than this is not judged. */
const MIN_RUNS = 3;
/** Share of runs that time out, or fail (timeouts included), past which a handler is named. */
const TIMEOUT_SHARE = 0.1;
const FAILURE_SHARE = 0.2;

/**
 * The decision log (docs/guides/decision-log.md): one warning per handler of the last 7 days'
 * decision log that times out or fails often (of at least MIN_RUNS runs, TIMEOUT_SHARE timed out or
 * FAILURE_SHARE failed), else one ok check. A log that cannot be read is a warning; an absent one
 * is fine.
 */
export function checkHookHealth(paths: StorePaths, now: number = Date.now()): DoctorCheck[] {
  let read;
  try {
    read = readLog(paths, { since: now - HEALTH_WINDOW_MS });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return [problem('hooks', 'warning', message, { code: 'log_unreadable' })];
  }
  const stats = computeStats(read.entries);
  const found = stats.handlers.flatMap((h) => finding(h));
  if (found.length > 0) return found;
  const seen = `${plural(stats.dispatches, 'dispatch', 'dispatches')} logged in the last 7 days`;
  return [okCheck('hooks', `${seen}: no hook times out or fails often`)];
}

function finding(h: HandlerStats): DoctorCheck[] {
  if (h.count < MIN_RUNS) return [];
  const timesOut = h.timeouts / h.count >= TIMEOUT_SHARE;
  if (!timesOut && h.failures / h.count < FAILURE_SHARE) return [];
  const what = timesOut
    ? `timed out in ${h.timeouts} of ${h.count} runs`
    : `failed in ${h.failures} of ${h.count} runs`;
  // A damaged log can name a plugin or handler of any length: the report quotes their heads.
  const plugin = clip(h.plugin);
  const handler = clip(h.handler);
  const event = clip(h.handler.split(':')[0] ?? '');
  const isPlugin = h.plugin !== 'user' && h.plugin !== 'project';
  const test = isPlugin ? `; try it with \`hookpm test ${shellWord(plugin)} ${event}\`` : '';
  return [
    problem(
      `hook:${plugin} ${handler}`,
      'warning',
      `${plugin} ${handler} ${what} in the last 7 days (p95 ${h.p95Ms} ms, max ${h.maxMs} ms)`,
      {
        code: timesOut ? 'hook_times_out' : 'hook_fails',
        fix: `See its runs with \`hookpm log${isPlugin ? ` --plugin ${shellWord(plugin)}` : ''} --event ${event}\`${test}.`,
      },
    ),
  ];
}
