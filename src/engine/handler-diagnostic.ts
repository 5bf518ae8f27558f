import type { DiagnosticCode, Severity } from '../hooks/diagnostic.js';
import type { SnapshotHandler } from '../hooks/types.js';
import type { ResultDiagnostic } from './types.js';

/** A dispatch diagnostic about one handler: it always names the handler, its origin and plugin. */
export function handlerDiagnostic(
  handler: SnapshotHandler,
  code: DiagnosticCode,
  severity: Severity,
  message: string,
): ResultDiagnostic {
  const where: ResultDiagnostic = { code, severity, message, handler: handler.id };
  where.origin = handler.origin;
  if (handler.plugin !== null) where.plugin = handler.plugin;
  return where;
}

/** How a block's reason names a handler's owner: `plugin <id>`, or `<origin> hooks`. */
export function handlerOwner(handler: SnapshotHandler): string {
  return handler.plugin === null ? `${handler.origin} hooks` : `plugin ${handler.plugin}`;
}
