import type { FileRange } from '../../io/file-range.js';
import { RangeLines } from '../../io/range-lines.js';
import type { EntrySpans } from './lazy-records.js';
import { ENTRY_SECTIONS, LINE_SECTIONS } from './state-lines.js';
import type { EntrySection, LineSection } from './state-lines.js';

/*
 * registry.md S42: the state document read back in the layout state-lines.ts writes, without
 * parsing its entries: where each entry's line, key and value are. Also the reader of one entry
 * line, which `list` uses on the lines it makes rows of.
 */

/** What scanStateLines found: each one-line section's JSON text, each entry section's spans. */
export interface StateLines {
  version: number;
  lines: Partial<Record<LineSection, string>>;
  entries: Partial<Record<EntrySection, EntrySpans>>;
}

const QUOTE = 0x22;
const NOT_ASCII = /[^\x00-\x7f]/;
const COLON = 0x3a;
const COMMA = 0x2c;
const VERSION_LINE = /^\{"version":(\d+),$/;

/**
 * The sections of a state document laid out exactly as stateLinesParts writes them, or null for
 * any other layout (an older hookpm's, a hand edit's): those are read whole. `source`: the
 * document's bytes, or the file's range, then read a piece at a time (range-lines.ts); the spans
 * found are offsets in the document either way. Values are not parsed here; a key with an escape
 * or `__proto__` makes the layout refused too.
 */
export function scanStateLines(source: Buffer | FileRange): StateLines | null {
  const lines = new RangeLines(source);
  const next = (): string | null => (lines.next() ? lines.text() : null);
  const version = VERSION_LINE.exec(next() ?? '');
  if (version === null) return null;
  const found: StateLines = { version: Number(version[1]), lines: {}, entries: {} };
  let line = next();
  for (const section of LINE_SECTIONS) {
    const prefix = `${JSON.stringify(section)}:`;
    if (line === null || !line.startsWith(prefix)) continue;
    if (!line.endsWith(',')) return null;
    found.lines[section] = line.slice(prefix.length, -1);
    line = next();
  }
  if (found.lines.registries === undefined) return null;
  for (const section of ENTRY_SECTIONS) {
    if (line !== `${JSON.stringify(section)}:{`) {
      if (section === 'plugins') return null;
      continue;
    }
    const spans = scanEntries(lines);
    if (spans === null || lines.text() !== (section === 'plugins' ? '}' : '},')) return null;
    found.entries[section] = spans;
    line = next();
  }
  if (line !== '}' || !lines.atEnd()) return null;
  return found;
}

/**
 * The entry lines up to the section's closing line, each `"<key>":<value>`, all but the last
 * ending in a comma; `lines` is left at the closing line.
 */
function scanEntries(lines: RangeLines): EntrySpans | null {
  const keys = new Map<string, number>();
  // Grown by doubling: thousands of entries make no array of numbers to copy at the end.
  let spans = new Uint32Array(3 * 256);
  let count = 0;
  const line = entryLine();
  let closed = true;
  for (;;) {
    if (!lines.next()) return null;
    const { bytes, start, base } = lines;
    if (bytes[start] !== QUOTE) break;
    if (!closed || !readEntryLine(bytes, start, lines.end, line) || keys.has(line.key)) return null;
    closed = line.comma;
    keys.set(line.key, keys.size);
    if (count === spans.length) {
      const larger = new Uint32Array(2 * spans.length);
      larger.set(spans);
      spans = larger;
    }
    spans[count] = base + start;
    spans[count + 1] = base + line.keyEnd + 2;
    spans[count + 2] = base + line.valueEnd;
    count += 3;
  }
  return keys.size === 0 || !closed ? { keys, spans: spans.subarray(0, count) } : null;
}

/**
 * An entry line of the layout, `"<key>":<value>` with or without its comma, as readEntryLine found
 * it (its line break is where the caller said).
 */
export interface EntryLine {
  key: string;
  /** Where the key's closing quote is; the value starts two bytes on. */
  keyEnd: number;
  /** Where the value ends: at the comma, or at the line break. */
  valueEnd: number;
  comma: boolean;
}

/**
 * The text of a key in `bytes` [start, end): read as latin1 (hookpm's keys are ASCII, which it
 * reads alike), as UTF-8 when it is not ASCII.
 */
export function entryKey(bytes: Buffer, start: number, end: number): string {
  const key = bytes.toString('latin1', start, end);
  return NOT_ASCII.test(key) ? bytes.toString('utf8', start, end) : key;
}

/**
 * An EntryLine to fill with readEntryLine, one for a whole scan (thousands of entries make no
 * object each).
 */
export function entryLine(): EntryLine {
  return { key: '', keyEnd: 0, valueEnd: 0, comma: false };
}

/**
 * Reads the entry line [start, lineEnd) of `bytes` (`lineEnd`: its line break, as RangeLines
 * finds it) into `line`; false when it is none: no key closed before the line's end and followed
 * by its colon, a key with an escape or `__proto__` (those layouts are read whole). The value is
 * not parsed.
 */
export function readEntryLine(
  bytes: Buffer,
  start: number,
  lineEnd: number,
  line: EntryLine,
): boolean {
  if (bytes[start] !== QUOTE) return false;
  // The key's closing quote, a few bytes on: looked for here, not with a call per entry.
  let quote = start + 1;
  while (quote < lineEnd && bytes[quote] !== QUOTE) quote += 1;
  if (quote >= lineEnd || bytes[quote + 1] !== COLON) return false;
  const key = entryKey(bytes, start + 1, quote);
  if (key.includes('\\') || key === '__proto__') return false;
  line.key = key;
  line.keyEnd = quote;
  line.comma = bytes[lineEnd - 1] === COMMA;
  line.valueEnd = line.comma ? lineEnd - 1 : lineEnd;
  return true;
}
