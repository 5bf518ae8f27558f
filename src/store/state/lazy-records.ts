/*
 * registry.md S42: a record of the state (`plugins`, `knownIntegrity`) read entry by entry. It is
 * an object to every reader (keys, `in`, Object.hasOwn, reads, writes, delete), but an entry's
 * JSON is parsed and checked only when it is read, from the bytes of the state file; the entries
 * never read are written back as the bytes they were (state-lines.ts). Reading every value
 * (Object.values, a spread, JSON.stringify) parses every entry, as a plain document would.
 */

/**
 * The entries of a section as found in the state file's bytes: each key with its index `i`, its
 * `"key":value` text at `spans[3i]` to `spans[3i + 2]` and its value from `spans[3i + 1]`. Flat, so
 * that thousands of entries make no object each.
 */
export interface EntrySpans {
  keys: Map<string, number>;
  spans: Uint32Array;
}

/** The index of an entry set since it was read (it has no span). */
export const SET = -1;

/**
 * Checks a parsed entry: the value to keep (the same object), or null when it breaks the schema.
 * `key` is the entry's key.
 */
export type EntryCheck<T> = (value: unknown, key: string) => T | null;

/** How a lazy record's entries stand, for state-lines.ts to write them. */
export interface LazyEntries<T> {
  /** The state file's bytes the spans point into. */
  bytes: Buffer;
  /** Every key in order, each with its index in `spans`, or SET when it was set since. */
  keys: ReadonlyMap<string, number>;
  spans: Uint32Array;
  /** The entries parsed or set, by key (each possibly changed in place since). */
  values: ReadonlyMap<string, T>;
  /** The indices of the entries deleted since they were read from the bytes. */
  removed: readonly number[];
}

const entriesOfProxy = new WeakMap<object, LazyEntries<unknown>>();

/**
 * A record whose entries are `found`'s, in `bytes`; `check` judges each entry when it is first
 * read, and `corrupt` makes the error for one it refuses (thrown by that read).
 */
export function lazyRecords<T>(
  bytes: Buffer,
  found: EntrySpans,
  check: EntryCheck<T>,
  corrupt: (key: string) => Error,
): Record<string, T> {
  const { keys, spans } = found;
  const values = new Map<string, T>();
  const removed: number[] = [];
  const load = (key: string): T | undefined => {
    const known = values.get(key);
    if (known !== undefined) return known;
    const at = keys.get(key);
    if (at === undefined || at === SET) return undefined;
    let value: T | null;
    try {
      value = check(JSON.parse(bytes.toString('utf8', spans[3 * at + 1], spans[3 * at + 2])), key);
    } catch {
      value = null;
    }
    if (value === null) throw corrupt(key);
    values.set(key, value);
    return value;
  };
  const put = (key: string, value: T): void => {
    if (!keys.has(key)) keys.set(key, SET);
    values.set(key, value);
  };
  const own = (key: string | symbol): key is string => typeof key === 'string' && keys.has(key);
  const target: Record<string, T> = {};
  const proxy = new Proxy(target, {
    get: (t, key, receiver) => (own(key) ? load(key) : Reflect.get(t, key, receiver)),
    has: (t, key) => own(key) || Reflect.has(t, key),
    ownKeys: () => [...keys.keys()],
    // An accessor, so that listing the keys (Object.keys, hasOwn) parses no entry.
    getOwnPropertyDescriptor: (_t, key) =>
      own(key)
        ? {
            configurable: true,
            enumerable: true,
            get: () => load(key),
            set: (value: T) => put(key, value),
          }
        : undefined,
    set: (t, key, value, receiver) => {
      if (typeof key !== 'string') return Reflect.set(t, key, value, receiver);
      put(key, value as T);
      return true;
    },
    defineProperty: (t, key, descriptor) => {
      if (typeof key !== 'string' || !('value' in descriptor))
        return Reflect.defineProperty(t, key, descriptor);
      put(key, descriptor.value as T);
      return true;
    },
    deleteProperty: (_t, key) => {
      if (typeof key === 'string') {
        const at = keys.get(key);
        if (at !== undefined && at !== SET) removed.push(at);
        keys.delete(key);
        values.delete(key);
      }
      return true;
    },
  });
  entriesOfProxy.set(proxy, { bytes, keys, spans, values, removed });
  return proxy;
}

/** The entries of a record made by lazyRecords, or undefined for any other object. */
export function lazyEntriesOf<T>(record: Record<string, T>): LazyEntries<T> | undefined {
  return entriesOfProxy.get(record) as LazyEntries<T> | undefined;
}

/**
 * The string values of the field `field` (at any depth) in the bytes of entries of `record`:
 * `which` 'unread' takes the entries never read nor set, 'superseded' the entries read, set or
 * deleted since (their values as they were read). Found without parsing; undefined for a record
 * that is not read entry by entry, or when a value holds an escape (the caller then reads every
 * entry). The bytes of JSON hold `"<field>":"` only where a key is: a quote inside a string is
 * escaped.
 */
export function fieldStrings(
  record: Record<string, unknown>,
  field: string,
  which: 'unread' | 'superseded',
): string[] | undefined {
  const lazy = lazyEntriesOf(record);
  if (lazy === undefined) return undefined;
  const { bytes, spans, values } = lazy;
  const indices: number[] = [];
  if (which === 'superseded') {
    // The entries read or set are the few in `values`: the keys are not walked (thousands).
    indices.push(...lazy.removed);
    for (const key of values.keys()) {
      const at = lazy.keys.get(key);
      if (at !== undefined && at !== SET) indices.push(at);
    }
  } else {
    for (const [key, at] of lazy.keys) if (at !== SET && !values.has(key)) indices.push(at);
  }
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
