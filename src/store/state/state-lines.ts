import type { State } from './state-schema.js';
import type { LazyEntries } from './lazy-records.js';
import { SET, lazyEntriesOf } from './lazy-records.js';

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
 * scan-state-lines.ts reads the layout back.
 */

/** The sections of one line, in the order they are written. */
export const LINE_SECTIONS = ['registries', 'removedDefaults', 'projects'] as const;
/** The sections of one line per entry, in the order they are written (`plugins` last). */
export const ENTRY_SECTIONS = ['knownIntegrity', 'plugins'] as const;

export type LineSection = (typeof LINE_SECTIONS)[number];
export type EntrySection = (typeof ENTRY_SECTIONS)[number];

/**
 * The state document's bytes in the layout above (scan-state-lines.ts reads it back), as
 * consecutive parts (serializeState joins them). Entries of a record read entry by entry
 * (lazy-records.ts) that were never read are ranges of the bytes they were read from, neighbours
 * joined into one range; every other value is serialised.
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
