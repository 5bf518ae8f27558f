import { HookpmError } from '../../errors.js';
import type { State } from './state-schema.js';
import { STATE_VERSION } from './state-schema.js';
import { quickStateOf } from './quick-state.js';
import { findKeyProblem } from './state-keys.js';
import { SET, lazyEntriesOf, lazyRecords } from './lazy-records.js';
import type { EntrySpans } from './lazy-records.js';
import { scanStateLines } from './state-lines.js';

/*
 * registry.md S42: the state read entry by entry, for a transaction that touches a few plugins
 * of thousands. The one-line sections (registries, projects, removedDefaults) are parsed and
 * checked at once; `plugins` and `knownIntegrity` are lazy records (lazy-records.ts) whose entries
 * are parsed and checked, by the same structural check as a whole document, when first read. Only
 * bytes hookpm wrote itself are read so (state-seal.ts): an entry never read is then known to pass
 * the check it passed when it was written.
 */

/**
 * The state in `bytes` read entry by entry, or null when they are not in hookpm's layout
 * (state-lines.ts) or their one-line sections fail the check: the caller reads them whole, which
 * says what is wrong. `corrupt` makes the error for an entry that fails its check when read.
 */
export function lazyStateOf(bytes: Buffer, corrupt: (where: string) => HookpmError): State | null {
  const found = scanStateLines(bytes);
  if (found === null || found.version !== STATE_VERSION) return null;
  const head: Record<string, unknown> = { version: found.version, plugins: {} };
  try {
    for (const [section, text] of Object.entries(found.lines)) head[section] = JSON.parse(text);
  } catch {
    return null;
  }
  const state = quickStateOf(head);
  if (state === null || findKeyProblem(state) !== null) return null;
  state.plugins = records(bytes, found.entries.plugins!, 'plugins', corrupt);
  const known = found.entries.knownIntegrity;
  if (known !== undefined) state.knownIntegrity = records(bytes, known, 'knownIntegrity', corrupt);
  return state;
}

function records<T>(
  bytes: Buffer,
  found: EntrySpans,
  section: 'plugins' | 'knownIntegrity',
  corrupt: (where: string) => HookpmError,
): Record<string, T> {
  return lazyRecords<T>(
    bytes,
    found,
    (value, key) => {
      // The whole document's check, on a document of this one entry.
      const one = {
        version: STATE_VERSION,
        registries: {},
        plugins: {},
        [section]: { [key]: value },
      };
      const checked = quickStateOf(one);
      if (checked === null || findKeyProblem(one) !== null) return null;
      return (checked[section] as Record<string, T>)[key]!;
    },
    (key) => corrupt(`${section}.${JSON.stringify(key)}`),
  );
}

/**
 * The part of `state` a write must check (serializeState's assertion): all of a whole state; of a
 * state read entry by entry, its one-line sections and the entries read or set (the others are
 * written back as the bytes they were read from).
 */
export function writtenPart(state: State): State {
  const plugins = lazyEntriesOf(state.plugins);
  const known =
    state.knownIntegrity === undefined ? undefined : lazyEntriesOf(state.knownIntegrity);
  if (plugins === undefined && known === undefined) return state;
  const part: State = {
    ...state,
    plugins: plugins === undefined ? state.plugins : touched(plugins.values),
  };
  if (state.knownIntegrity !== undefined)
    part.knownIntegrity = known === undefined ? state.knownIntegrity : touched(known.values);
  return part;
}

function touched<T>(values: ReadonlyMap<string, T>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const [key, value] of values)
    Object.defineProperty(out, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return out;
}

/** How many entries of `state` were parsed from its bytes (all of them for a whole state). */
export function parsedEntries(state: State): number {
  const count = (record: Record<string, unknown> | undefined): number => {
    if (record === undefined) return 0;
    return lazyEntriesOf(record)?.parsed ?? Object.keys(record).length;
  };
  return count(state.plugins) + count(state.knownIntegrity);
}

/**
 * The string values of the field `field` (at any depth) in the bytes of entries of `record`:
 * `which` 'unread' takes the entries never read nor set, 'superseded' the entries read, set or
 * deleted since (their values as they were read). Found without parsing; undefined for a record
 * that is not read entry by entry, or when a value holds an escape (the caller then reads every
 * entry). The bytes of JSON hold `"<field>":"` only where a key is: a quote inside a string is
 * escaped.
 */
export function stringsIn(
  record: Record<string, unknown>,
  field: string,
  which: 'unread' | 'superseded',
): string[] | undefined {
  const lazy = lazyEntriesOf(record);
  if (lazy === undefined) return undefined;
  const { bytes, spans, values } = lazy;
  const indices: number[] = [];
  if (which === 'superseded') indices.push(...lazy.removed);
  for (const [key, at] of lazy.keys)
    if (at !== SET && values.has(key) === (which === 'superseded')) indices.push(at);
  const needle = Buffer.from(`${JSON.stringify(field)}:"`, 'utf8');
  const found: string[] = [];
  for (const at of indices) {
    const end = spans[3 * at + 2]!;
    let from = spans[3 * at + 1]!;
    for (;;) {
      const hit = bytes.indexOf(needle, from);
      if (hit === -1 || hit >= end) break;
      const start = hit + needle.length;
      const close = bytes.indexOf(0x22, start);
      if (close === -1 || close >= end) return undefined;
      const value = bytes.toString('utf8', start, close);
      if (value.includes('\\')) return undefined;
      found.push(value);
      from = close + 1;
    }
  }
  return found;
}

/**
 * Whether an entry of `record` never read nor set holds `"<field>":"<value>"` in its bytes (a
 * value written without escapes, as JSON writes a fingerprint); undefined for a record that is not
 * read entry by entry.
 */
export function unreadHolds(
  record: Record<string, unknown>,
  field: string,
  value: string,
): boolean | undefined {
  const lazy = lazyEntriesOf(record);
  if (lazy === undefined) return undefined;
  const { bytes, spans, values } = lazy;
  const unread = new Set<number>();
  for (const [key, at] of lazy.keys) if (at !== SET && !values.has(key)) unread.add(at);
  const needle = Buffer.from(`${JSON.stringify(field)}:${JSON.stringify(value)}`, 'utf8');
  for (let hit = bytes.indexOf(needle); hit !== -1; hit = bytes.indexOf(needle, hit + 1)) {
    // The entry the hit is in: spans are in the order of the bytes.
    let low = 0;
    let high = spans.length / 3 - 1;
    while (low < high) {
      const mid = Math.ceil((low + high) / 2);
      if (spans[3 * mid]! <= hit) low = mid;
      else high = mid - 1;
    }
    if (spans[3 * low]! <= hit && hit < spans[3 * low + 2]! && unread.has(low)) return true;
  }
  return false;
}
