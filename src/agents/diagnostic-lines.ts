import type { ResultDiagnostic } from '../engine/types.js';
import { escapeControl } from '../text/escape-control.js';

/**
 * The diagnostics `hookpm wire` tells on stderr, a line each (info ones are for the log only).
 * A message can quote a handler's own text (the end of its stderr), which the agent may show on
 * the user's terminal: its control characters are escaped
 * (docs/reference/rules/cli.md#conventions), so a plugin cannot move the cursor, retitle the
 * terminal or hide text through hookpm.
 */
export function diagnosticLines(diagnostics: readonly ResultDiagnostic[]): string {
  return diagnostics
    .filter((d) => d.severity !== 'info')
    .map((d) => `hookpm: ${d.severity} ${d.code}: ${escapeControl(d.message)}\n`)
    .join('');
}
