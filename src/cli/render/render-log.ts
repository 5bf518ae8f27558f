import type { LoggedDispatch } from '../../ops/steps/decision-log/dispatch-line.js';
import type { HookStats, RunStats } from '../../ops/steps/decision-log/hook-stats.js';
import { LOGGED_DECISIONS } from '../../ops/steps/decision-log/run-outcome.js';
import { isPlainObject } from '../../json/describe-value.js';
import { clip, FIELD_MAX } from '../../text/clip.js';
import { escapeControl, renderTable } from './render.js';

/**
 * One logged dispatch on one line: time, event, decision, source, then each run (or none). A run
 * names its hook as `hookpm hooks` does: a plugin's by its key, a hooks file's by its id. Each
 * field is clipped (text/clip.ts), so a line of any length prints a bounded one.
 */
export function formatLogEntry(entry: LoggedDispatch): string {
  const runs = entry.runs.map((r) => {
    const exit = r.timedOut ? 'timeout' : r.exitCode === null ? 'killed' : `exit ${r.exitCode}`;
    return `${clip(r.plugin ?? r.origin)} ${clip(r.key ?? r.handler)} ${exit} ${r.ms} ms${r.decision === null ? '' : ` ${r.decision}`}`;
  });
  const omitted = entry.runsOmitted === undefined ? '' : ` (+${entry.runsOmitted} more)`;
  if (runs.length === 0 && omitted === '') runs.push('no handler matched');
  const time = entry.time.replace('T', ' ').replace(/\.\d+Z$/, 'Z');
  const notes = Array.isArray(entry.notes) ? entry.notes.map(noteText) : [];
  return escapeControl(
    [
      clip(time),
      clip(entry.event),
      entry.decision ?? '-',
      clip(entry.source),
      runs.join('; ') + omitted,
      ...notes,
    ].join('  '),
  );
}

/** A logged note as `code: message`; one of another shape (a damaged line) as its JSON. */
function noteText(note: unknown): string {
  if (!isPlainObject(note)) return clip(JSON.stringify(note) ?? '', FIELD_MAX);
  return clip(`${String(note['code'])}: ${String(note['message'])}`, FIELD_MAX);
}

function figures(s: RunStats): string[] {
  return [
    String(s.count),
    `${s.p50Ms} ms`,
    `${s.p95Ms} ms`,
    `${s.maxMs} ms`,
    String(s.timeouts),
    String(s.failures),
  ];
}

/** The decisions taken, most first, as `4 deny, 1 allow`; `-` for none. */
export function decisionsText(d: RunStats['decisions']): string {
  const taken = LOGGED_DECISIONS.filter((name) => d[name] > 0)
    .sort((a, b) => d[b] - d[a])
    .map((name) => `${d[name]} ${name}`);
  return taken.length === 0 ? '-' : taken.join(', ');
}

const FIGURES = ['RUNS', 'P50', 'P95', 'MAX', 'TIMEOUT', 'FAILED'];

/**
 * `hookpm stats`: the plugins, then the hooks, slowest first. A hook is named as `hookpm hooks`
 * names it: a plugin's by its key, a hooks file's by its id. Ids, keys and figures are never cut
 * (table.ts `whole`) but at 200 characters (text/clip.ts: only a line put in the log by something
 * else holds a longer one); at a narrow width the decisions (and a hook's event) are cut, or go on
 * a line of their own under the row.
 */
export function formatStats(stats: HookStats, width?: number | null): string {
  if (stats.dispatches === 0) return 'no dispatch logged (hookpm log shows what is logged)';
  const fit = width === undefined ? {} : { width };
  return [
    `${stats.dispatches} dispatch(es) logged`,
    '',
    renderTable(
      ['PLUGIN', ...FIGURES, 'DECISIONS'],
      stats.plugins.map((p) => [clip(p.plugin), ...figures(p), decisionsText(p.decisions)]),
      { whole: [0, 1, 2, 3, 4, 5, 6], ...fit },
    ),
    '',
    renderTable(
      ['PLUGIN', 'HOOK', ...FIGURES, 'EVENT, DECISIONS'],
      stats.handlers.map((h) => [
        clip(h.plugin),
        clip(h.key ?? h.handler),
        ...figures(h),
        `${clip(h.event)}, ${decisionsText(h.decisions)}`,
      ]),
      { whole: [0, 1, 2, 3, 4, 5, 6, 7], last: 'own-line', ...fit },
    ),
  ].join('\n');
}
