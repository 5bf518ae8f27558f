import { isTerminal, terminalWidth, writeText } from '../stdio.js';
import { colourEnabled, paint } from './colour.js';
import { formatTable, type TableOptions } from './table.js';
import { clip } from '../../text/clip.js';
import { escapeControl, JSON_RAW, unitEscape } from '../../text/escape-control.js';

// The CLI takes its printing words from this module; the escaping itself lives in text/, where the
// agents' output (no part of the CLI) uses it too.
export { escapeControl };

/**
 * Terminal rendering. Plugin-supplied text is printed with control characters escaped
 * (docs/reference/rules/cli.md#conventions), so a hooks file cannot move the cursor, recolour the
 * terminal or hide text.
 */

/**
 * A left-aligned text table; every cell is escaped. Fitted to the width of stdout on a terminal
 * (table.ts), unless `options.width` says otherwise (null: not fitted).
 */
export function renderTable(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
  options: TableOptions = {},
): string {
  const width = options.width === undefined ? terminalWidth(1) : options.width;
  return formatTable(
    headers.map(escapeControl),
    rows.map((row) => row.map(escapeControl)),
    { ...options, width },
  );
}

/**
 * `value` as JSON text with every control character escaped
 * (docs/reference/rules/cli.md#conventions): indented, or on one line with `indent` 0.
 */
export function jsonText(value: unknown, indent = 2): string {
  // JSON_RAW characters occur only inside JSON strings, where `\uXXXX` stands for the same
  // character, so the document parses to the same value.
  return (JSON.stringify(value, null, indent) ?? 'null').replace(JSON_RAW, unitEscape);
}

/** The version of every `--json` document's shape (docs/reference/cli-json.md); its first key. */
export const JSON_SCHEMA_VERSION = 1;

/**
 * Writes one JSON document on stdout (cli.md: `--json` prints exactly one): always an object,
 * whose first key is `schemaVersion` (docs/reference/cli-json.md), then the fields of `value`.
 */
export function printJson(value: object): void {
  if (Array.isArray(value)) throw new Error('Assertion failed: a --json document is an object');
  writeText(1, `${jsonText({ schemaVersion: JSON_SCHEMA_VERSION, ...value })}\n`);
}

/**
 * Writes one JSON object as one line on stdout, `schemaVersion` first, for the commands that print
 * a stream of them (`log --follow --json`: newline-delimited JSON, docs/reference/cli-json.md).
 */
export function printJsonLine(value: object): void {
  if (Array.isArray(value)) throw new Error('Assertion failed: a --json line is an object');
  writeText(1, `${jsonText({ schemaVersion: JSON_SCHEMA_VERSION, ...value }, 0)}\n`);
}

export function printLine(text = ''): void {
  writeText(1, `${text}\n`);
}

/** A line on stderr; a warning's `hookpm: warning...:` lead in yellow where stderr has colour. */
export function printErrorLine(text: string): void {
  const lead = WARNING.exec(text)?.[0];
  const coloured =
    lead !== undefined && colourEnabled({ isTTY: isTerminal(2) })
      ? paint(lead, 'warning', true) + text.slice(lead.length)
      : text;
  writeText(2, `${coloured}\n`);
}

const WARNING = /^(?:hookpm: )?warning(?:\[[A-Z_]+\])?:/;

/**
 * One diagnostic as a readable line: `error invalid_config <path>: <message>`. The path is cut as
 * `clip` cuts quoted text (a document's key, of any length, is in it); `--json` keeps it whole.
 */
export function formatDiagnostic(d: {
  severity: string;
  code: string;
  message: string;
  path?: string;
}): string {
  const where = d.path === undefined ? '' : `${clip(d.path)}: `;
  return escapeControl(`${d.severity} ${d.code} ${where}${d.message}`);
}
