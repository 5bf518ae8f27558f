import { isTerminal } from '../stdio.js';

/** cli.md section 1: colour only on a TTY and never with NO_COLOR (any value, https://no-color.org). */
export function colourEnabled(stream?: { isTTY?: boolean }): boolean {
  const noColor = process.env.NO_COLOR;
  if (noColor !== undefined && noColor !== '') return false;
  return stream === undefined ? isTerminal(1) : stream.isTTY === true;
}

export function bold(text: string, on: boolean): string {
  return on ? `\u001b[1m${text}\u001b[22m` : text;
}

/** A rendered table (see render.ts renderTable) with its header line in bold. */
export function boldHeader(table: string, on: boolean): string {
  const newline = table.indexOf('\n');
  if (!on) return table;
  return newline === -1
    ? bold(table, on)
    : `${bold(table.slice(0, newline), on)}${table.slice(newline)}`;
}
