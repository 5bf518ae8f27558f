import type { LoggedDispatch } from '../../ops/steps/decision-log/dispatch-line.js';
import type { HandlerStats, HookStats, PluginStats } from '../../ops/steps/decision-log/hook-stats.js';
import { escapeControl, renderTable } from './render.js';

/** One logged dispatch on one line: time, event, decision, source, then each run (or none). */
export function formatLogEntry(entry: LoggedDispatch): string {
  const runs = entry.runs.map((r) => {
    const exit = r.timedOut ? 'timeout' : r.exitCode === null ? 'killed' : `exit ${r.exitCode}`;
    return `${r.plugin ?? r.origin} ${r.handler} ${exit} ${r.ms} ms${r.decision === null ? '' : ` ${r.decision}`}`;
  });
  const omitted = entry.runsOmitted === undefined ? '' : ` (+${entry.runsOmitted} more)`;
  if (runs.length === 0 && omitted === '') runs.push('no handler matched');
  const time = entry.time.replace('T', ' ').replace(/\.\d+Z$/, 'Z');
  return escapeControl(
    [time, entry.event, entry.decision ?? '-', entry.source, runs.join('; ') + omitted].join('  '),
  );
}

function row(name: string[], s: PluginStats | HandlerStats): string[] {
  const d = s.decisions;
  return [
    ...name,
    String(s.count),
    `${s.p50Ms} ms`,
    `${s.p95Ms} ms`,
    `${s.maxMs} ms`,
    String(s.timeouts),
    String(s.failures),
    `${d.allow}/${d.ask}/${d.deny}/${d.block}/${d.context}`,
  ];
}

const FIGURES = [
  'RUNS',
  'P50',
  'P95',
  'MAX',
  'TIMEOUTS',
  'FAILURES',
  'ALLOW/ASK/DENY/BLOCK/CONTEXT',
];

/** `hookpm stats`: the plugins, then the handlers, slowest first. */
export function formatStats(stats: HookStats): string {
  if (stats.dispatches === 0) return 'no dispatch logged (hookpm log shows what is logged)';
  return [
    `${stats.dispatches} dispatch(es) logged`,
    '',
    renderTable(
      ['PLUGIN', ...FIGURES],
      stats.plugins.map((p) => row([p.plugin], p)),
    ),
    '',
    renderTable(
      ['PLUGIN', 'HANDLER', ...FIGURES],
      stats.handlers.map((h) => row([h.plugin, h.handler], h)),
    ),
  ].join('\n');
}
