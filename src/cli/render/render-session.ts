import type { SessionReport } from '../../ops/run/session.js';
import { escapeControl, formatDiagnostic } from './render.js';

/**
 * A session report for a person (the `hookpm session` prompt, at start and after /reload): the
 * snapshot id, the handler count, the plugins with their events, then one line per diagnostic.
 */
export function formatSessionReport(report: SessionReport, title: string): string {
  const lines = [
    `${title}: snapshot ${report.snapshotId.slice(0, 12)}, ${report.handlers} handler(s)`,
  ];
  if (report.plugins.length === 0) lines.push('plugins: none');
  for (const p of report.plugins) {
    lines.push(escapeControl(`plugin ${p.id}: ${p.events.join(', ') || 'no events'}`));
  }
  for (const d of report.diagnostics) lines.push(formatDiagnostic(d));
  return lines.join('\n');
}
