import { stderrTail } from '../engine/stderr-tail.js';
import type { HandlerRun, ResultDiagnostic } from '../engine/types.js';

/**
 * A run's faults as non-blocking diagnostics: no launch, a timeout, an exit other than 0 and 2,
 * and an exit 2 where it cannot block (`exit2Blocks` false: Claude Code takes it as a plain error
 * there, and shows its stderr), quoting the end of the handler's stderr as the engine does (K3).
 */
export function runProblems(run: HandlerRun, exit2Blocks = true): ResultDiagnostic[] {
  const where = {
    origin: run.handler.origin,
    ...(run.handler.plugin === null ? {} : { plugin: run.handler.plugin }),
    handler: run.handler.id,
  };
  if (run.failure !== null)
    return [{ code: run.failure.kind, severity: 'error', message: run.failure.message, ...where }];
  if (run.timedOut)
    return [
      {
        code: 'timeout',
        severity: 'error',
        message: `handler ${run.handler.id} timed out after ${run.handler.timeoutSec}s`,
        ...where,
      },
    ];
  if (run.exitCode !== 0 && (run.exitCode !== 2 || !exit2Blocks)) {
    return [
      {
        code: 'nonzero_exit',
        severity: 'warning',
        message: `handler ${run.handler.id} exited ${String(run.exitCode)}${stderrTail(run.stderr)}`,
        ...where,
      },
    ];
  }
  return [];
}
