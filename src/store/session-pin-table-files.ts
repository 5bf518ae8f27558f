import { closeSync, fstatSync, futimesSync } from 'node:fs';
import type { EventName } from '../hooks/events.js';
import type { GroupConfig, SourceDocument } from '../hooks/types.js';
import { isPlainObject } from '../json/describe-value.js';
import { openRegularFile, readOpenedFile } from '../io/read-regular-file.js';
import { isPinnedPlugin, type PinnedPlugin, type SessionPin } from './session-pin-schema.js';
import { replaceFile } from './replace-file.js';

/*
 * engine.md X10: a session pin compiled into a table by event and matcher, beside the pin
 * (session-pins.ts), so that a linked event reads only the groups that can match it, not the
 * whole pin. For a pin `<key>.json`:
 * - `<key>.head`: the pin's small fields (session id, snapshot id, project root, Stop count,
 *   diagnostics) and, per event, the buckets written for it; it is written last, so a head names
 *   only buckets already written.
 * - `<key>.<Event>.all`: the event's groups whose matcher is a wildcard, a regular expression or
 *   one the snapshot builder rejects (the builder judges those at each event, as it did).
 * - `<key>.<Event>.n-<hex>`: the groups whose exact matcher (E2) names that value, the hex of its
 *   UTF-8 (a name longer than NAME_MAX_BYTES goes to `all`).
 * Each bucket carries the pin's identity (its time and snapshot id): a bucket of another pin, a
 * missing, damaged or foreign one makes the reader give up (null), and the caller reads the
 * whole pin and writes the tables again. A bucket holds, per source, its plugin, its file, the
 * merged index (R2) of its first group of the event and its groups with their positions, so the
 * snapshot built from a table gives every handler the id it has in the whole pin's snapshot.
 * Tables are a cache of the pin: written by rename without fsync (a torn one is damaged, and
 * rebuilt), removed with the pin. This file holds the tables' format: their files, head and
 * buckets, read and checked; session-pin-tables.ts writes and reads a pin's tables.
 */
export const TABLE_VERSION = 1;
const NAME_MAX_BYTES = 96;
const TABLE_MAX_BYTES = 16 * 1024 * 1024;
/**
 * Past the merged index (R2) of any group a pin can hold: a pin is at most 16 MB
 * (session-pins.ts) and each group takes at least 5 of its bytes (`null,`). A bucket placing a
 * group further is not one hookpm wrote, and padding to it would take unbounded memory.
 */
const MERGED_INDEX_LIMIT = 4 * 1024 * 1024;
/** A head in use is touched at most this often (session-pins.ts PIN_STALE_MS). */
const TOUCH_EVERY_MS = 60 * 60_000;

/** The pin's small fields and the buckets written for each event. */
export interface Head {
  version: number;
  sessionId: string;
  pinnedAt: string;
  snapshotId: string;
  projectRoot?: string;
  stopContinuations: number;
  diagnostics: SessionPin['diagnostics'];
  buckets: Partial<Record<EventName, string[]>>;
}

/** A source's groups of one bucket, with where they are in the pin (see above). */
export interface BucketSource {
  /** The source's position in the pin. */
  s: number;
  file: string;
  plugin: NonNullable<SourceDocument['plugin']>;
  /** The merged index (R2) of the source's first group of the event. */
  at: number;
  groups: Array<[localIndex: number, group: GroupConfig]>;
}

/** One bucket's file. */
export interface Bucket {
  version: number;
  pin: string;
  plugins: PinnedPlugin[];
  sources: BucketSource[];
  /**
   * The key of each handler of the bucket's groups, beside the text it hashes (plugin/hook-key.ts
   * hookKeyText), so that logging an event loads no hashing code; absent in older tables.
   */
  keys?: Array<[text: string, key: string]>;
}

/** The pin's identity as its tables carry it. */
export const identity = (pin: { pinnedAt: string; snapshotId: string }): string =>
  `${pin.pinnedAt} ${pin.snapshotId}`;

/** The table file `<key>.<suffix>` beside the pin `<key>.json`. */
export function tableFile(pinFile: string, suffix: string): string {
  return `${pinFile.slice(0, -'.json'.length)}.${suffix}`;
}

/** The bucket of an exact matcher name, or null for a name too long to have one (`all`). */
export function nameBucket(name: string): string | null {
  const hex = Buffer.from(name, 'utf8').toString('hex');
  return hex.length > NAME_MAX_BYTES * 2 ? null : `n-${hex}`;
}

/** Writes the head of the tables of `pinFile` (replaceFile). */
export function writeHead(pinFile: string, head: Head): void {
  replaceFile(tableFile(pinFile, 'head'), JSON.stringify(head));
}

/**
 * The JSON of a regular file of at most TABLE_MAX_BYTES, or null. With `now`, a file last touched
 * more than TOUCH_EVERY_MS before it is touched (the session is in use).
 */
export function readJson(file: string, now?: number): unknown {
  let fd: number;
  try {
    fd = openRegularFile(file, { maxBytes: TABLE_MAX_BYTES });
  } catch {
    return null;
  }
  try {
    const text = readOpenedFile(fd, file, TABLE_MAX_BYTES).toString('utf8');
    if (now !== undefined && now - fstatSync(fd).mtimeMs > TOUCH_EVERY_MS)
      futimesSync(fd, now / 1000, now / 1000);
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** The head of the tables of `pinFile` when it is one of `sessionId`'s, well formed; else null. */
export function readHead(pinFile: string, sessionId: string, now?: number): Head | null {
  const head = readJson(tableFile(pinFile, 'head'), now);
  if (!isPlainObject(head) || head['version'] !== TABLE_VERSION) return null;
  if (head['sessionId'] !== sessionId) return null;
  const strings = ['pinnedAt', 'snapshotId'].every((k) => typeof head[k] === 'string');
  const count = head['stopContinuations'];
  if (!strings || !Number.isSafeInteger(count) || (count as number) < 0) return null;
  if (head['projectRoot'] !== undefined && typeof head['projectRoot'] !== 'string') return null;
  if (!Array.isArray(head['diagnostics']) || !isPlainObject(head['buckets'])) return null;
  return head as unknown as Head;
}

/** Whether `value` is a bucket of this table version, well formed. */
export function isBucket(value: unknown): value is Bucket {
  if (!isPlainObject(value) || value['version'] !== TABLE_VERSION) return false;
  if (typeof value['pin'] !== 'string') return false;
  const { plugins, sources } = value;
  return (
    Array.isArray(plugins) &&
    plugins.every(isPinnedPlugin) &&
    Array.isArray(sources) &&
    sources.every(isBucketSource)
  );
}

/** Whether `value` is a [text, key] pair of Bucket.keys. */
export function isKeyPair(value: unknown): value is [string, string] {
  return (
    Array.isArray(value) &&
    value.length === 2 &&
    typeof value[0] === 'string' &&
    typeof value[1] === 'string'
  );
}

function isBucketSource(value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  const { s, at, file, plugin, groups } = value;
  return (
    Number.isSafeInteger(s) &&
    Number.isSafeInteger(at) &&
    (at as number) >= 0 &&
    (at as number) < MERGED_INDEX_LIMIT &&
    typeof file === 'string' &&
    isPlainObject(plugin) &&
    ['id', 'root', 'data'].every((k) => typeof plugin[k] === 'string') &&
    Array.isArray(groups) &&
    groups.length > 0 &&
    groups.every(
      (g) =>
        Array.isArray(g) &&
        g.length === 2 &&
        Number.isSafeInteger(g[0]) &&
        (g[0] as number) >= 0 &&
        (g[0] as number) < 100_000 &&
        isPlainObject(g[1]) &&
        Array.isArray((g[1] as Record<string, unknown>)['hooks']),
    )
  );
}
