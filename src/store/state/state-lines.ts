import type { State } from './state-schema.js';
import type { EntrySpans, LazyEntries } from './lazy-records.js';
import { SET, lazyEntriesOf } from './lazy-records.js';
import type { FileRange } from '../../io/file-range.js';
import { RangeLines } from '../../io/range-lines.js';

/*
 * registry.md S42: the layout hookpm writes the state document in. It is one JSON document (any
 * JSON reader reads it), laid out so that one entry of `plugins` or `knownIntegrity` can be found,
 * parsed and replaced without parsing or serialising the others:
 *
 *   {"version":1,
 *   "registries":{...},
 *   "removedDefaults":[...],          (when present)
 *   "projects":{...},                 (when present)
 *   "knownIntegrity":{                (when present)
 *   "<id>":{...},
 *   "<id>":{...}
 *   },
 *   "plugins":{
 *   "<id>":{...},
 *   "<id>":{...}
 *   }
 *   }
 *
 * Every value is compact JSON, which has no raw line break, so each entry is one line.
 */

/** The sections of one line, in the order they are written. */
const LINE_SECTIONS = ['registries', 'removedDefaults', 'projects'] as const;
/** The sections of one line per entry, in the order they are written (`plugins` last). */
const ENTRY_SECTIONS = ['knownIntegrity', 'plugins'] as const;

type LineSection = (typeof LINE_SECTIONS)[number];
type EntrySection = (typeof ENTRY_SECTIONS)[number];

/** What scanStateLines found: each one-line section's JSON text, each entry section's spans. */
export interface StateLines {
  version: number;
  lines: Partial<Record<LineSection, string>>;
  entries: Partial<Record<EntrySection, EntrySpans>>;
}

/**
 * The state document's bytes in the layout above, as consecutive parts (serializeState joins
 * them). Entries of a record read entry by entry (lazy-records.ts) that were never read are ranges
 * of the bytes they were read from, neighbours joined into one range; every other value is
 * serialised.
 */
export function stateLinesParts(state: State): Buffer[] {
  const out = new Parts();
  out.text(`{"version":${JSON.stringify(state.version)},\n`);
  for (const section of LINE_SECTIONS) {
    const value = state[section];
    if (value !== undefined) out.text(`${JSON.stringify(section)}:${JSON.stringify(value)},\n`);
  }
  for (const section of ENTRY_SECTIONS) {
    const record = state[section] as Record<string, unknown> | undefined;
    if (record === undefined) continue;
    out.text(`${JSON.stringify(section)}:{\n`);
    writeEntries(out, record);
    out.text(section === 'plugins' ? '}\n}\n' : '},\n');
  }
  return out.parts();
}

/** Each entry of `record` as a line, the last without its comma. */
function writeEntries(out: Parts, record: Record<string, unknown>): void {
  const lazy = lazyEntriesOf(record);
  let first = true;
  const separate = (): void => {
    if (!first) out.text(',\n');
    first = false;
  };
  if (lazy === undefined) {
    for (const [key, value] of Object.entries(record)) {
      separate();
      out.text(`${JSON.stringify(key)}:${JSON.stringify(value)}`);
    }
  } else {
    writeLazyEntries(out, lazy, separate);
  }
  if (!first) out.text('\n');
}

/**
 * The entries of a lazy record in its keys' order, with a step per entry changed rather than per
 * entry: the keys read from the bytes come first, in the order of the bytes, and the keys set since
 * after them (lazy-records.ts), so every run of entries neither read, set nor deleted between two
 * changes is one range of the bytes, separators included. An entry read or set is serialised.
 */
function writeLazyEntries(out: Parts, lazy: LazyEntries<unknown>, separate: () => void): void {
  const { bytes, keys, spans, values } = lazy;
  // The entries of the bytes written from their values, by index; the keys set since, in order
  // (values holds them in the order keys does: both gain a key set, and lose a key deleted, at once).
  const rewritten = new Map<number, string>();
  const added: string[] = [];
  for (const [key, value] of values) {
    const at = keys.get(key);
    if (at === SET) added.push(key);
    else if (at !== undefined && value !== undefined) rewritten.set(at, key);
  }
  // The entries deleted and those rewritten are apart: a key deleted and set again is a key set.
  const stops = [...lazy.removed, ...rewritten.keys()].sort((a, b) => a - b);
  let from = 0;
  for (const at of [...stops, spans.length / 3]) {
    if (from < at) {
      separate();
      out.range(bytes, spans[3 * from]!, spans[3 * (at - 1) + 2]!);
    }
    const key = rewritten.get(at);
    if (key !== undefined) {
      separate();
      out.text(`${JSON.stringify(key)}:${JSON.stringify(values.get(key))}`);
    }
    from = at + 1;
  }
  for (const key of added) {
    separate();
    out.text(`${JSON.stringify(key)}:${JSON.stringify(values.get(key))}`);
  }
}

/**
 * Text and ranges of a buffer, in order. A range that follows the previous one in the same buffer
 * with only the separator ",\n" between them, as it was there, extends it: the entries never read
 * between two changes are one part.
 */
class Parts {
  private readonly out: Buffer[] = [];
  private texts: string[] = [];
  private run: { bytes: Buffer; start: number; end: number } | null = null;
  text(text: string): void {
    this.texts.push(text);
  }
  range(bytes: Buffer, start: number, end: number): void {
    const run = this.run;
    const next = run !== null && run.bytes === bytes && run.end + 2 === start;
    if (next && this.texts.length === 1 && this.texts[0] === ',\n') {
      run.end = end;
      this.texts = [];
      return;
    }
    this.flush();
    this.run = { bytes, start, end };
  }
  parts(): Buffer[] {
    this.flush();
    return this.out;
  }
  private flush(): void {
    if (this.run !== null) this.out.push(this.run.bytes.subarray(this.run.start, this.run.end));
    this.run = null;
    if (this.texts.length > 0) this.out.push(Buffer.from(this.texts.join(''), 'utf8'));
    this.texts = [];
  }
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

/** An entry line of the layout above, `"<key>":<value>` with or without its comma, as readEntryLine found it. */
export interface EntryLine {
  key: string;
  /** Where the key's closing quote is; the value starts two bytes on. */
  keyEnd: number;
  /** Where the value ends: at the comma, or at the line break. */
  valueEnd: number;
  /** Where the line break is. */
  lineEnd: number;
  comma: boolean;
}

/** The text of a key in `bytes` [start, end): read as latin1 (hookpm's keys are ASCII, which it reads alike), as UTF-8 when it is not ASCII. */
export function entryKey(bytes: Buffer, start: number, end: number): string {
  const key = bytes.toString('latin1', start, end);
  return NOT_ASCII.test(key) ? bytes.toString('utf8', start, end) : key;
}

/** An EntryLine to fill with readEntryLine, one for a whole scan (thousands of entries make no object each). */
export function entryLine(): EntryLine {
  return { key: '', keyEnd: 0, valueEnd: 0, lineEnd: 0, comma: false };
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
  line.lineEnd = lineEnd;
  return true;
}
