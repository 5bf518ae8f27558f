import type { HandlerRun, RunSummary } from './types.js';

/** A run as a dispatch result lists it (docs/reference/rules/cli.md#json-shapes). */
export function runSummary(run: HandlerRun): RunSummary {
  return {
    handler: run.handler.id,
    origin: run.handler.origin,
    plugin: run.handler.plugin,
    exitCode: run.exitCode,
    timedOut: run.timedOut,
    durationMs: run.durationMs,
  };
}
