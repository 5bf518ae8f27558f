import { isTerminal } from '../stdio.js';

/**
 * docs/reference/rules/cli.md#conventions: colour only on a TTY and never with NO_COLOR (any
 * non-empty value, https://no-color.org), which wins over everything; FORCE_COLOR set to anything
 * but `0` or `false` colours off a TTY too, as Node and chalk read it. `stream` is stdout unless
 * given.
 */
export function colourEnabled(stream?: { isTTY?: boolean }): boolean {
  const noColor = process.env.NO_COLOR;
  if (noColor !== undefined && noColor !== '') return false;
  const force = process.env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force !== 'false';
  return stream === undefined ? isTerminal(1) : stream.isTTY === true;
}

/** What a coloured line says: a diff's added, removed or changed line, a warning, an error. */
export type Tone = 'added' | 'removed' | 'changed' | 'warning' | 'error';

const SGR: Readonly<Record<Tone, string>> = {
  added: '\u001b[32m',
  removed: '\u001b[31m',
  changed: '\u001b[33m',
  warning: '\u001b[33m',
  error: '\u001b[31m',
};

/** `text` in the colour of `tone` when `on` (null: no colour); the text is already escaped. */
export function paint(text: string, tone: Tone | null, on: boolean): string {
  return on && tone !== null && text !== '' ? `${SGR[tone]}${text}\u001b[39m` : text;
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
