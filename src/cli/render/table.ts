import { displayWidth, padToWidth, truncateToWidth } from './width.js';
import { wrapText } from './wrap.js';

/**
 * A left-aligned text table: columns two spaces apart, trailing spaces trimmed. Cells are given
 * escaped (render.ts escapeControl).
 *
 * With a `width` (the terminal's columns) the table fits it by display width (width.ts): while a
 * row is too wide, the widest column is narrowed (first those not in `keep`, down to their
 * header's width, then the `keep` ones too, then any down to 1 column where nothing else fits),
 * and a narrowed cell ends in `…`. `last` says what a last-column cell too long for the room
 * left does instead of being cut: `own-line` puts it on a line of its own under its row, indented
 * 4 and wrapped at spaces (a command is shown whole); `wrap` wraps it at spaces inside its column
 * (a value of a key/value list). Without a width (not a terminal) the table is exactly as wide as
 * its cells.
 */
export interface TableOptions {
  width?: number | null;
  last?: 'cut' | 'own-line' | 'wrap';
  /** Columns narrowed only once the others are as narrow as they go (names a user types). */
  keep?: readonly number[];
  /**
   * Columns never cut (figures and ids: a cut `310…` or `guard…` says nothing): where the other
   * columns cannot make room, the row is wider than `width` and the terminal wraps it.
   */
  whole?: readonly number[];
}

const GAP = 2;
const OWN_LINE_INDENT = 4;
/** The least room `wrap` leaves its column. */
const WRAP_ROOM = 20;

export function formatTable(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
  options: TableOptions = {},
): string {
  const all = [headers, ...rows];
  // A reduce, not Math.max(...): a table of 200,000 rows (a hooks file of as many handlers) is
  // more arguments than one call takes.
  const natural = headers.map((_, col) =>
    all.reduce((widest, row) => Math.max(widest, cellWidth(row, col)), 0),
  );
  const width = options.width ?? null;
  if (width === null || rowWidth(natural) <= width) return layout(all, natural);
  const last = headers.length - 1;
  const mode = last > 0 ? (options.last ?? 'cut') : 'cut';
  const floors = headers.map((h, col) => Math.min(natural[col] ?? 0, displayWidth(h)));
  const keep = new Set(options.keep ?? []);
  const kept = floors.map((floor, col) => (keep.has(col) ? (natural[col] ?? 0) : floor));
  const whole = new Set(options.whole ?? []);
  const phases = [kept, floors, floors.map(() => 1)].map((floor) =>
    floor.map((w, col) => (whole.has(col) ? (natural[col] ?? 0) : w)),
  );
  if (mode === 'cut') return layout(all, narrow(natural, phases, width));
  // The columns before the last fit the width with room for the last cell's least width.
  const least =
    mode === 'wrap' ? Math.max(headerOf(headers, last), WRAP_ROOM) : headerOf(headers, last);
  const lead = narrow(
    natural.slice(0, last),
    phases.map((floor) => floor.slice(0, last)),
    width - GAP - least,
  );
  const room = Math.max(width - rowWidth(lead) - GAP, 0);
  const lines: string[] = [];
  for (const row of all) {
    const cell = row[last] ?? '';
    if (displayWidth(cell) <= room) {
      lines.push(line([...row.slice(0, last), cell], [...lead, room]));
    } else if (mode === 'wrap') {
      const [first = '', ...rest] = wrapText(cell, room);
      lines.push(line([...row.slice(0, last), first], [...lead, room]));
      const start = ' '.repeat(width - room);
      lines.push(...rest.map((part) => start + part));
    } else {
      lines.push(line(row.slice(0, last), lead));
      lines.push(...wrapText(' '.repeat(OWN_LINE_INDENT) + cell, width, OWN_LINE_INDENT));
    }
  }
  return lines.join('\n');
}

function headerOf(headers: readonly string[], col: number): number {
  return displayWidth(headers[col] ?? '');
}

function cellWidth(row: readonly string[], col: number): number {
  return displayWidth(row[col] ?? '');
}

function rowWidth(widths: readonly number[]): number {
  return widths.reduce((sum, w) => sum + w, 0) + GAP * Math.max(0, widths.length - 1);
}

/**
 * Narrows the widest column above its floor by one, again and again until the row fits, with the
 * floors of each phase in turn.
 */
function narrow(
  natural: readonly number[],
  phases: readonly (readonly number[])[],
  width: number,
): number[] {
  const widths = [...natural];
  for (const floor of phases) {
    while (rowWidth(widths) > width) {
      let widest = -1;
      for (let col = 0; col < widths.length; col += 1)
        if (
          (widths[col] ?? 0) > (floor[col] ?? 0) &&
          (widest === -1 || (widths[col] ?? 0) > (widths[widest] ?? 0))
        )
          widest = col;
      if (widest === -1) break;
      widths[widest] = (widths[widest] ?? 1) - 1;
    }
  }
  return widths;
}

function layout(rows: readonly (readonly string[])[], widths: readonly number[]): string {
  return rows.map((row) => line(row, widths)).join('\n');
}

function line(row: readonly string[], widths: readonly number[]): string {
  return row
    .map((cell, col) => {
      const fitted = truncateToWidth(cell, widths[col] ?? 0);
      return col === row.length - 1 ? fitted : padToWidth(fitted, widths[col] ?? 0);
    })
    .join(' '.repeat(GAP))
    .trimEnd();
}
