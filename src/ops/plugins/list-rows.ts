import { closeSync } from 'node:fs';
import type { FileRange } from '../../io/file-range.js';
import { PIECE, commonLength, rangeBytes } from '../../io/file-range.js';
import { quietly } from '../../io/fs-error.js';
import { RangeLines } from '../../io/range-lines.js';
import { compareCodeUnits } from '../../json/compare.js';
import { documentParts, insertionPoints } from './list-document.js';
import type { ListShape, NewRow } from './list-document.js';
import { stateFile } from '../../store/home-paths.js';
import type { StorePaths } from '../../store/store-paths.js';
import { checkedEntry } from '../../store/state/checked-entry.js';
import { openPluginsSection } from '../../store/state/plugins-section.js';
import { entryKey, entryLine, readEntryLine } from '../../store/state/scan-state-lines.js';
import type { PluginRecord } from '../../store/state/state-schema.js';
import { fileIdentity, isSealed } from '../../store/state/state-seal.js';
import { readTreeVerdicts } from '../../store/tree-verdicts.js';
import type { TreeVerdicts } from '../../store/tree-verdicts.js';
import { ROW_FIELDS, keepListFile, openListFile, writeDocument } from './list-cache.js';
import type { DocumentPart, KeptList, KeptRows, ListKey, RowsToKeep } from './list-cache.js';
import { listedPlugin } from './listed-plugin.js';

/*
 * registry.md S33: the first `list --json` after a change, made from the rows kept with the last
 * document (list-cache.ts) where the state's entries are unchanged. Only a state file hookpm
 * sealed (S42) is read so: it is in hookpm's layout (state-lines.ts), one line per entry, and
 * every entry in it passed the state's check when it was written. Its `plugins` section is
 * compared with the section the kept rows were made from, from the start and from the end (both
 * read a piece at a time, never whole: file-range.ts): a line in the common start or the common
 * end is an unchanged entry, whose row is the kept one; the lines between them are parsed,
 * checked (D6) and made into rows. An install, update, enable or removal changes one line, so
 * the list after it parses one entry, not thousands. A row depends on its entry's bytes, the
 * verdicts and hookpm's version alone (listed-plugin.ts), and rows are kept under the last two;
 * list-document.ts puts the document together from the kept rows and the new ones.
 */

/** The document made, and what to keep of it. */
export interface RenewedList {
  parts: DocumentPart[];
  /** The file kept before, open (ranges of `parts` are in it), or null. */
  from: KeptList | null;
  /** The state's `plugins` section, open. keepAndWrite closes both. */
  state: FileRange;
  /** The rows to keep with the document. */
  rows: RowsToKeep;
  /** Whether the state read is the one `key` was taken of, so the document may be kept under it. */
  ofKey: boolean;
  /** Whether any row differs from the kept ones (a document kept for its rows only then need not be written again). */
  changed: boolean;
}

const NEWLINE = 0x0a;

/**
 * The `list --json` document for the state as it is now, reusing the kept rows of unchanged
 * entries; null when the state is not one hookpm sealed (or an entry fails its check): the caller
 * then reads and checks it whole, which says what is wrong.
 */
export function renewListDocument(
  paths: StorePaths,
  key: ListKey,
  shape: ListShape,
): RenewedList | null {
  let section: FileRange | null;
  try {
    section = openPluginsSection(stateFile(paths));
  } catch {
    return null;
  }
  if (section === null) return null;
  let from: KeptList | null = null;
  try {
    const identity = fileIdentity(section.fd);
    if (isSealed(paths, identity)) {
      from = openListFile(paths, key);
      const made = renew(section, from, shape, () => readTreeVerdicts(paths));
      // Read as it was sealed: a change while it was read shows in its identity.
      if (made !== null && fileIdentity(section.fd) === identity) {
        const state = section;
        const unchanged = (): boolean => fileIdentity(state.fd) === identity;
        return {
          parts: made.parts,
          from,
          state,
          rows: { ...made.rows, unchanged },
          changed: made.changed,
          ofKey: identity.endsWith(` ${key.state}`),
        };
      }
    }
  } catch {
    // Read whole by the caller, which says what is wrong.
  }
  quietly(() => closeSync(section.fd));
  if (from !== null) quietly(() => closeSync(from.fd));
  return null;
}

/**
 * Keeps `renewed` in the cache as `key` allows (its document under the key when settled, its rows
 * when the verdicts are) and hands its document to `write` a piece at a time (a piece is reused
 * after `write` returns); closes the state and the file kept before.
 */
export function keepAndWrite(
  paths: StorePaths,
  key: ListKey,
  renewed: RenewedList,
  write: (bytes: Buffer) => void,
): void {
  try {
    const identity = key.settled && renewed.ofKey ? key.identity : '-';
    const rows = key.rowsSettled ? renewed.rows : null;
    // A file that holds neither a document under a key nor new rows would only cost a write.
    if (identity !== '-' || (rows !== null && renewed.changed))
      keepListFile(paths, key, identity, renewed.parts, renewed.from, rows);
    writeDocument(renewed.parts, renewed.from, write);
  } finally {
    const { state, from } = renewed;
    quietly(() => closeSync(state.fd));
    if (from !== null) quietly(() => closeSync(from.fd));
  }
}

function renew(
  section: FileRange,
  from: KeptList | null,
  shape: ListShape,
  verdicts: () => TreeVerdicts,
): {
  parts: DocumentPart[];
  rows: { index: Uint32Array; section: FileRange };
  changed: boolean;
} | null {
  const old = from?.rows ?? null;
  const reuse = old === null ? null : unchangedLines(section, from!.fd, old);
  const count = old?.count ?? 0;
  const index = old?.index ?? new Uint32Array(0);
  // The old entries kept: [0, before) from the common start, [after, count) from the common end.
  const before = reuse?.before ?? 0;
  const after = reuse?.after ?? count;
  const shift = reuse?.shift ?? 0;
  const middleStart = before > 0 ? index[(before - 1) * ROW_FIELDS + 2]! + 1 : 0;
  const middleEnd = after < count ? index[after * ROW_FIELDS]! + shift : section.length;
  const fresh = newRows(section, middleStart, middleEnd, shape, verdicts);
  if (fresh === null) return null;
  // The new index, in the section's order: the kept start, the new lines, the kept end. Each
  // entry's slot in it; its row's fields are filled in as the document is made.
  const rows = new Uint32Array((before + fresh.length + (count - after)) * ROW_FIELDS);
  const slotOf = (i: number): number => (i < before ? i : before + fresh.length + i - after);
  const line = (slot: number, start: number, keyEnd: number, lineEnd: number): void => {
    rows[slot * ROW_FIELDS] = start;
    rows[slot * ROW_FIELDS + 1] = keyEnd;
    rows[slot * ROW_FIELDS + 2] = lineEnd;
  };
  for (let i = 0; i < before; i += 1) {
    const o = i * ROW_FIELDS;
    line(i, index[o]!, index[o + 1]!, index[o + 2]!);
  }
  fresh.forEach((row, j) => line(before + j, row.start, row.keyEnd, row.lineEnd));
  for (let i = after; i < count; i += 1) {
    const o = i * ROW_FIELDS;
    line(slotOf(i), index[o]! + shift, index[o + 1]! + shift, index[o + 2]! + shift);
  }
  const kept = keptInRowOrder(index, count, before, after);
  if (kept === null) return null;
  const keyOf = (i: number): string => {
    const o = slotOf(i) * ROW_FIELDS;
    const bytes = rangeBytes(section, rows[o]! + 1, rows[o + 1]!);
    if (bytes === null) throw new Error('the state file was cut short');
    return entryKey(bytes, 0, bytes.length);
  };
  const sorted = fresh.map((row, j) => ({ row, slot: before + j }));
  sorted.sort((a, b) => compareCodeUnits(a.row.key, b.row.key));
  const places = insertionPoints(kept, sorted, keyOf);
  if (places === null) return null;
  const parts = documentParts(kept, sorted, places, index, from, shape, slotOf, (slot, at) =>
    rows.set(at, slot * ROW_FIELDS + 3),
  );
  if (parts === null) return null;
  return {
    parts,
    rows: { index: rows, section },
    changed: old === null || fresh.length > 0 || kept.length !== count,
  };
}

/**
 * The kept entries [0, before) and [after, count) of `index` in the order of their rows (which is
 * by id); null when two claim one position or one a position past the end.
 */
function keptInRowOrder(
  index: Uint32Array,
  count: number,
  before: number,
  after: number,
): Int32Array | null {
  const byRow = new Int32Array(count).fill(-1);
  let kept = 0;
  for (let i = 0; i < count; i += 1) {
    if (i === before) i = after;
    if (i >= count) break;
    const position = index[i * ROW_FIELDS + 3]!;
    if (position >= count || byRow[position] !== -1) return null;
    byRow[position] = i;
    kept += 1;
  }
  const inOrder = new Int32Array(kept);
  for (let position = 0, k = 0; position < count; position += 1)
    if (byRow[position] !== -1) inOrder[k++] = byRow[position]!;
  return inOrder;
}

/**
 * Which kept entries are unchanged in `section`: the first `before` (their lines lie in the
 * common start) and those from `after` on (in the common end, `shift` bytes later now). Null when
 * the kept index does not describe lines of the kept section, one after another.
 */
function unchangedLines(
  section: FileRange,
  fd: number,
  old: KeptRows,
): { before: number; after: number; shift: number } | null {
  const { index, count, sectionLength } = old;
  let next = 0;
  for (let i = 0; i < count; i += 1) {
    const o = i * ROW_FIELDS;
    const start = index[o]!;
    const keyEnd = index[o + 1]!;
    const lineEnd = index[o + 2]!;
    if (start !== next || keyEnd <= start || lineEnd <= keyEnd) return null;
    next = lineEnd + 1;
  }
  if (next !== sectionLength) return null;
  const kept: FileRange = { fd, at: old.sectionAt, length: sectionLength };
  const scratch = [Buffer.allocUnsafeSlow(PIECE), Buffer.allocUnsafeSlow(PIECE)] as const;
  const shorter = Math.min(sectionLength, section.length);
  const prefix = commonLength(kept, section, shorter, false, scratch);
  const suffix = commonLength(kept, section, shorter - prefix, true, scratch);
  const shift = section.length - sectionLength;
  let before = 0;
  while (before < count && index[before * ROW_FIELDS + 2]! < prefix) before += 1;
  let after = count;
  while (after > before && index[(after - 1) * ROW_FIELDS]! >= sectionLength - suffix) after -= 1;
  // The common end may begin inside a line that is longer now: its first kept line must begin one.
  if (after < count) {
    const start = index[after * ROW_FIELDS]! + shift;
    if (start > 0 && rangeBytes(section, start - 1, start)?.[0] !== NEWLINE) after += 1;
  }
  return { before, after, shift };
}

/** The entry lines of `section` in [start, end), in order, each parsed, checked and made into a row; null when one is not an entry or fails its check. */
function newRows(
  section: FileRange,
  start: number,
  end: number,
  shape: ListShape,
  verdicts: () => TreeVerdicts,
): NewRow[] | null {
  const rows: NewRow[] = [];
  // Read a piece at a time: after a change to every entry, the lines are the whole section.
  const lines = new RangeLines({ fd: section.fd, at: section.at + start, length: end - start });
  let known: TreeVerdicts | undefined;
  const line = entryLine();
  while (lines.next()) {
    const { bytes } = lines;
    if (!readEntryLine(bytes, lines.start, lines.end, line)) return null;
    let record: PluginRecord | null;
    try {
      const value: unknown = JSON.parse(bytes.toString('utf8', line.keyEnd + 2, line.valueEnd));
      record = checkedEntry<PluginRecord>('plugins', line.key, value);
    } catch {
      record = null;
    }
    if (record === null) return null;
    known ??= verdicts();
    const at = start + lines.base;
    rows.push({
      key: line.key,
      text: Buffer.from(shape.row(listedPlugin(record, known, true))),
      start: at + lines.start,
      keyEnd: at + line.keyEnd,
      lineEnd: at + lines.end,
    });
  }
  // A last line without its line break, or a file cut short, is no list of entries.
  return lines.atEnd() ? rows : null;
}
