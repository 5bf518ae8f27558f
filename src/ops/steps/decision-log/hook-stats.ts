import type { LoggedDispatch } from './dispatch-line.js';
import { LOGGED_DECISIONS, type LoggedDecision } from './run-outcome.js';

/** The figures of one plugin or one handler over the runs logged. */
export interface RunStats {
  count: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  timeouts: number;
  failures: number;
  decisions: Record<LoggedDecision, number>;
}

export interface PluginStats extends RunStats {
  /** The plugin id, or `user` / `project` for the hooks files' handlers. */
  plugin: string;
}

export interface HandlerStats extends PluginStats {
  /**
   * A plugin hook's key (plugin/hook-key.ts, as `hookpm hooks --json` shows it): runs are grouped
   * by it, so a hook's figures stay one row when another plugin's install moves its position;
   * null for the hooks files' handlers and runs logged without one (grouped by `handler` then).
   */
  key: string | null;
  event: string;
  /** `<Event>:<group>:<handler>` (engine.md R2) of its latest run: a position, not stable. */
  handler: string;
}

export interface HookStats {
  dispatches: number;
  /** Slowest first (p95, then max). */
  plugins: PluginStats[];
  handlers: HandlerStats[];
}

interface Runs {
  times: number[];
  timeouts: number;
  failures: number;
  decisions: Record<LoggedDecision, number>;
}

/** Per plugin and per handler: count, p50/p95/max time, timeouts, failures, decisions. */
export function computeStats(entries: readonly LoggedDispatch[]): HookStats {
  const plugins = new Map<string, Runs>();
  const handlers = new Map<
    string,
    { plugin: string; key: string | null; event: string; handler: string; runs: Runs }
  >();
  for (const entry of entries) {
    for (const run of entry.runs) {
      const plugin = run.plugin ?? run.origin;
      const key = run.key ?? null;
      const group = `${plugin}\0${entry.event}\0${key ?? `id:${run.handler}`}`;
      let h = handlers.get(group);
      if (h === undefined)
        handlers.set(
          group,
          (h = { plugin, key, event: entry.event, handler: run.handler, runs: empty() }),
        );
      h.handler = run.handler;
      let p = plugins.get(plugin);
      if (p === undefined) plugins.set(plugin, (p = empty()));
      for (const into of [p, h.runs]) {
        into.times.push(typeof run.ms === 'number' ? run.ms : 0);
        if (run.timedOut) into.timeouts += 1;
        if (run.failed) into.failures += 1;
        if (run.decision !== null && LOGGED_DECISIONS.includes(run.decision))
          into.decisions[run.decision] += 1;
      }
    }
  }
  return {
    dispatches: entries.length,
    plugins: slowestFirst([...plugins].map(([plugin, runs]) => ({ plugin, ...figures(runs) }))),
    handlers: slowestFirst(
      [...handlers.values()].map(({ plugin, key, event, handler, runs }) => ({
        plugin,
        key,
        event,
        handler,
        ...figures(runs),
      })),
    ),
  };
}

function empty(): Runs {
  return {
    times: [],
    timeouts: 0,
    failures: 0,
    decisions: { allow: 0, ask: 0, deny: 0, block: 0, context: 0 },
  };
}

function figures(runs: Runs): RunStats {
  const sorted = [...runs.times].sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50Ms: percentile(sorted, 0.5),
    p95Ms: percentile(sorted, 0.95),
    maxMs: sorted[sorted.length - 1] ?? 0,
    timeouts: runs.timeouts,
    failures: runs.failures,
    decisions: runs.decisions,
  };
}

/** The nearest-rank percentile of ascending `sorted`. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]!;
}

function slowestFirst<T extends RunStats & { plugin: string }>(rows: T[]): T[] {
  return rows.sort(
    (a, b) => b.p95Ms - a.p95Ms || b.maxMs - a.maxMs || a.plugin.localeCompare(b.plugin),
  );
}
