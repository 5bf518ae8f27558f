import type { DispatchResult } from '../../engine/types.js';
import { clip } from '../../text/clip.js';
import { escapeControl, renderTable } from './render.js';

/**
 * Hook-supplied text, escaped (docs/reference/rules/cli.md#conventions) line by line: each line of
 * a multi-line message is escaped and indented under the first, so hook output can neither hide
 * text nor pose as a line of the report.
 */
function block(text: string, indent: string): string {
  return text
    .split('\n')
    .map((line, i) => (i === 0 ? '' : indent) + escapeControl(line))
    .join('\n');
}

function list(title: string, items: readonly string[]): string[] {
  if (items.length === 0) return [];
  return [`${title}:`, ...items.map((item) => `  - ${block(item, '    ')}`)];
}

function decisionLine(result: DispatchResult): string {
  const p = result.permission;
  if (p === null) return 'permission: none';
  const reason = p.reason === null ? '' : `: ${block(p.reason, '  ')}`;
  return `permission: ${p.decision}${p.interrupt ? ' (interrupt)' : ''}${reason}`;
}

/**
 * The runs, one a row. A plugin id is cut (text/clip.ts): `hookpm test` runs a plugin whose
 * manifest name is invalid, and so of any length, under that name.
 */
function runsTable(result: DispatchResult): string {
  const rows = result.runs.map((r) => [
    r.handler,
    r.plugin === null ? r.origin : `plugin ${clip(r.plugin)}`,
    r.timedOut ? 'timeout' : r.exitCode === null ? '-' : String(r.exitCode),
    `${r.durationMs} ms`,
  ]);
  return renderTable(['HANDLER', 'ORIGIN', 'EXIT', 'TIME'], rows);
}

/**
 * The readable form of a dispatch result (`hookpm run` without `--json`, and a session on a TTY):
 * the decision, stop reason, messages, context, feedback, diagnostics, then the runs.
 */
export function formatDispatchResult(result: DispatchResult): string {
  const lines = [
    `${result.event}: ${result.runs.length} handler(s) ran (snapshot ${result.snapshotId.slice(0, 12)})`,
    `continue: ${result.continue ? 'yes' : 'no'}`,
  ];
  if (result.stopReason !== null) lines.push(`stop reason: ${block(result.stopReason, '  ')}`);
  if (result.event === 'PreToolUse' || result.event === 'PermissionRequest') {
    lines.push(decisionLine(result));
  }
  if (result.event === 'Stop') lines.push(`continue loop: ${result.continueLoop ? 'yes' : 'no'}`);
  if (result.suppressOriginalPrompt) lines.push('suppress original prompt: yes');
  lines.push(...list('system messages', result.systemMessages));
  lines.push(...list('context', result.context));
  lines.push(...list('feedback', result.feedback));
  const diagnostics = result.diagnostics.map((d) => {
    const where = d.handler ?? d.path ?? d.plugin ?? d.origin;
    return `${d.severity} ${d.code}${where === undefined ? '' : ` ${where}`}: ${d.message}`;
  });
  // One line per diagnostic, pushed one by one: a file of 200,000 invalid handlers has as many.
  for (const line of list('diagnostics', diagnostics)) lines.push(line);
  if (result.runs.length > 0) lines.push(runsTable(result));
  return lines.join('\n');
}
