import { compareCodeUnits } from '../../json/compare.js';
import { ROW_FIELDS } from './list-cache.js';
import type { DocumentPart, KeptList } from './list-cache.js';
import type { ListedPlugin } from './listed-plugin.js';

/*
 * registry.md S33: the `list --json` document put together from the rows kept (ranges of the kept
 * document) and the rows made now, in the document's order (by id). list-rows.ts decides which
 * rows are which.
 */

/** How the document is written: around its rows, and each row. */
export interface ListShape {
  /** The whole document when there is no plugin. */
  empty: string;
  /** Before the first row, between two rows, after the last. */
  head: string;
  separator: string;
  tail: string;
  /** One row's text. */
  row: (plugin: ListedPlugin) => string;
}

/** An entry of the section made into a row now. */
export interface NewRow {
  key: string;
  text: Buffer;
  /** Its line in the new section: start, key's closing quote, line break. */
  start: number;
  keyEnd: number;
  lineEnd: number;
}

/** A row made now, with its slot in the new index. */
export interface Fresh {
  row: NewRow;
  slot: number;
}

/**
 * For each new row (sorted by key), how many kept rows come before it in the document's order
 * (by id, as `list` sorts): found by binary search, so few kept keys are read. Null when a new
 * key equals a kept one.
 */
export function insertionPoints(
  kept: Int32Array,
  sorted: readonly Fresh[],
  keyOf: (i: number) => string,
): Int32Array | null {
  const places = new Int32Array(sorted.length);
  let lo = 0;
  for (let s = 0; s < sorted.length; s += 1) {
    const key = sorted[s]!.row.key;
    let hi = kept.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareCodeUnits(keyOf(kept[mid]!), key) < 0) lo = mid + 1;
      else hi = mid;
    }
    if (lo < kept.length && keyOf(kept[lo]!) === key) return null;
    places[s] = lo;
  }
  return places;
}

/**
 * The document's parts: the kept rows `kept` in order, with the new rows `sorted` placed among
 * them (`places`); kept rows that follow one another in the kept document are one range of it.
 * `placed` is told each row's slot with its position and where it starts and ends in the
 * document made. Null when a kept row lies outside the kept document.
 */
export function documentParts(
  kept: Int32Array,
  sorted: readonly Fresh[],
  places: Int32Array,
  index: Uint32Array,
  from: KeptList | null,
  shape: ListShape,
  slotOf: (i: number) => number,
  placed: (slot: number, at: [number, number, number]) => void,
): DocumentPart[] | null {
  const total = kept.length + sorted.length;
  if (total === 0) return [Buffer.from(shape.empty)];
  const separator = Buffer.from(shape.separator);
  const parts: DocumentPart[] = [Buffer.from(shape.head)];
  let length = parts[0]!.length;
  /** The range of the kept document being extended, and where its last row ends there. */
  let run: { at: number; length: number; end: number } | null = null;
  const flush = (): void => {
    if (run !== null) parts.push({ at: run.at, length: run.length });
    run = null;
  };
  const next = (position: number): void => {
    if (position === 0) return;
    parts.push(separator);
    length += separator.length;
  };
  for (let position = 0, k = 0, s = 0; position < total; position += 1) {
    if (s < sorted.length && places[s] === k) {
      const { row, slot } = sorted[s++]!;
      flush();
      next(position);
      parts.push(row.text);
      placed(slot, [position, length, length + row.text.length]);
      length += row.text.length;
      continue;
    }
    const i = kept[k++]!;
    const start = index[i * ROW_FIELDS + 4]!;
    const end = index[i * ROW_FIELDS + 5]!;
    if (from === null || end <= start || end > from.documentLength) return null;
    const current = run as { at: number; length: number; end: number } | null;
    if (current !== null && start === current.end + separator.length) {
      // The next row of the kept document: the separator before it is the kept one.
      current.length += end - current.end;
      current.end = end;
      length += separator.length;
    } else {
      flush();
      next(position);
      run = { at: from.documentAt + start, length: end - start, end };
    }
    placed(slotOf(i), [position, length, length + end - start]);
    length += end - start;
  }
  flush();
  parts.push(Buffer.from(shape.tail));
  return parts;
}
