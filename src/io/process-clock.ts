/**
 * The milliseconds since this process started (process.uptime()), the clock of the host deadlines
 * (engine.md X6: DispatchOptions.deadline, `hookpm wire`'s agent deadline) and of the handlers'
 * durations. It is `performance.now()`'s clock, counted from a stamp of the process's start that
 * Node takes under a millisecond later (so it reads that much less), without `performance`: its
 * first use loads Node's perf_hooks modules, about 1.5 ms of every linked event that runs a
 * handler (docs/design/benchmarks.md).
 */
export function processMs(): number {
  return process.uptime() * 1000;
}
