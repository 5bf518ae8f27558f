import type { TestPluginReport } from '../../ops/test/test-plugin.js';
import { formatDispatchResult } from './render-dispatch.js';
import { clip } from '../../text/clip.js';
import { escapeControl, formatDiagnostic } from './render.js';

/** At most this many lines of each output stream are shown per handler (all of it with --json). */
const SHOWN_LINES = 20;

function output(title: string, text: string): string[] {
  const trimmed = text.replace(/\n$/, '');
  if (trimmed === '') return [];
  const lines = trimmed.split('\n');
  const shown = lines.slice(0, SHOWN_LINES).map((line) => `      ${escapeControl(line)}`);
  if (lines.length > SHOWN_LINES)
    shown.push(`      ... ${lines.length - SHOWN_LINES} more line(s)`);
  return [`    ${title}:`, ...shown];
}

/**
 * The readable form of `hookpm test`: each handler's run with its output, then the result. The
 * plugin's name and version are shown as its manifest gives them even when invalid (a diagnostic
 * says why): escaped and clipped like any text a plugin supplies.
 */
export function formatTestReport(report: TestPluginReport): string {
  const named = escapeControl(`${clip(report.plugin)} ${clip(report.version)}`);
  const lines = [
    `${named} (${report.kind}): ${report.event}, ${report.handlers.length} handler(s) ran`,
  ];
  for (const d of report.diagnostics) lines.push(formatDiagnostic(d));
  for (const h of report.handlers) {
    const exit = h.timedOut
      ? 'timed out'
      : h.exitCode === null
        ? `killed${h.signal === null ? '' : ` by ${h.signal}`}`
        : `exit ${h.exitCode}`;
    const verdict = h.failed ? 'FAILED' : h.decision === null ? 'ok' : h.decision;
    lines.push(`  ${escapeControl(clip(h.handler))}  ${exit}  ${h.ms} ms  ${verdict}`);
    lines.push(`    command: ${escapeControl(h.command)}`);
    lines.push(...output('stdout', h.stdout), ...output('stderr', h.stderr));
  }
  if (report.handlers.length === 0)
    lines.push(`  no handler of the plugin matched this ${report.event} payload`);
  if (report.dataDir !== null) lines.push(`data directory: ${escapeControl(report.dataDir)}`);
  lines.push('', formatDispatchResult(report.result));
  return lines.join('\n');
}
