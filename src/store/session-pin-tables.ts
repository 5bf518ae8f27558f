import { closeSync, fstatSync, futimesSync, readdirSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { EVENTS, EVENT_NAMES, type EventName } from '../hooks/events.js';
import { compileMatcher } from '../hooks/matcher.js';
import type { GroupConfig, SourceDocument } from '../hooks/types.js';
import { isPlainObject } from '../json/describe-value.js';
import { openRegularFile, readOpenedFile } from '../io/read-regular-file.js';
import { hookKey, hookKeyText, rememberHookKeys } from '../plugin/hook-key.js';
import type { PinnedPlugin, SessionPin } from './session-pin-schema.js';
import { replaceFile } from './replace-file.js';

/**
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
 * rebuilt), removed with the pin.
 */
export interface PinTable {
  sessionId: string;
  pinnedAt: string;
  snapshotId: string;
  projectRoot?: string;
  stopContinuations: number;
  diagnostics: SessionPin['diagnostics'];
  /** The pinned plugins of `sources`. */
  plugins: PinnedPlugin[];
  /** The pin's sources that hold a group of the event that can match, padded (see above). */
  sources: SourceDocument[];
}

const TABLE_VERSION = 1;
const NAME_MAX_BYTES = 96;
const TABLE_MAX_BYTES = 16 * 1024 * 1024;
/** A head in use is touched at most this often (session-pins.ts PIN_STALE_MS). */
const TOUCH_EVERY_MS = 60 * 60_000;

/** The pin's small fields (a PinTable's but its plugins and sources) and its buckets by event. */
interface Head extends Omit<PinTable, 'plugins' | 'sources'> {
  version: number;
  buckets: Partial<Record<EventName, string[]>>;
}

interface BucketSource {
  /** The source's position in the pin. */
  s: number;
  file: string;
  plugin: NonNullable<SourceDocument['plugin']>;
  /** The merged index (R2) of the source's first group of the event. */
  at: number;
  groups: Array<[localIndex: number, group: GroupConfig]>;
}

interface Bucket {
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

const identity = (pin: { pinnedAt: string; snapshotId: string }): string =>
  `${pin.pinnedAt} ${pin.snapshotId}`;

function tableFile(pinFile: string, suffix: string): string {
  return `${pinFile.slice(0, -'.json'.length)}.${suffix}`;
}

/** The bucket a group's matcher puts it in on `event`: `all`, or `n-<hex>` per exact name. */
function bucketsOf(group: GroupConfig, event: EventName): string[] {
  const compiled = compileMatcher(group.matcher ?? null, event);
  if (!compiled.ok || compiled.matcher.kind !== 'exact') return ['all'];
  const names = compiled.matcher.names.map((name) => nameBucket(name));
  return names.some((n) => n === null) ? ['all'] : [...new Set(names as string[])];
}

function nameBucket(name: string): string | null {
  const hex = Buffer.from(name, 'utf8').toString('hex');
  return hex.length > NAME_MAX_BYTES * 2 ? null : `n-${hex}`;
}

/**
 * Writes the tables of `pin` beside `pinFile` (its file), head last; the caller ignores a failure
 * (the pin itself is what counts). Files of an earlier pin of the session that this one does not
 * write are left: their identity differs, and the head does not name them.
 */
export function writePinTables(pinFile: string, pin: SessionPin): void {
  const pluginOf = new Map(pin.plugins.map((p) => [p.id, p]));
  const buckets: Partial<Record<EventName, string[]>> = {};
  for (const event of EVENT_NAMES) {
    const byBucket = new Map<string, Map<number, BucketSource>>();
    let merged = 0;
    pin.sources.forEach((source, s) => {
      const groups = source.config[event] ?? [];
      groups.forEach((group, localIndex) => {
        if (group === null || source.plugin === undefined) return;
        for (const name of bucketsOf(group, event)) {
          const sources = byBucket.get(name) ?? new Map<number, BucketSource>();
          byBucket.set(name, sources);
          const entry = sources.get(s) ?? {
            s,
            file: source.file,
            plugin: source.plugin,
            at: merged,
            groups: [],
          };
          entry.groups.push([localIndex, group]);
          sources.set(s, entry);
        }
      });
      merged += groups.length;
    });
    if (byBucket.size === 0) continue;
    buckets[event] = [...byBucket.keys()].sort();
    for (const [name, sources] of byBucket) {
      const entries = [...sources.values()];
      const ids = new Set(entries.map((e) => e.plugin.id));
      const bucket: Bucket = {
        version: TABLE_VERSION,
        pin: identity(pin),
        plugins: [...ids].flatMap((id) => pluginOf.get(id) ?? []),
        sources: entries,
        keys: keysOf(event, entries),
      };
      replaceFile(tableFile(pinFile, `${event}.${name}`), JSON.stringify(bucket));
    }
  }
  writeHead(pinFile, {
    version: TABLE_VERSION,
    sessionId: pin.sessionId,
    pinnedAt: pin.pinnedAt,
    snapshotId: pin.snapshotId,
    ...(pin.projectRoot === undefined ? {} : { projectRoot: pin.projectRoot }),
    stopContinuations: pin.stopContinuations,
    diagnostics: pin.diagnostics,
    buckets,
  });
}

/** The hook key of every handler of `sources`, by its text (see Bucket.keys). */
function keysOf(event: EventName, sources: readonly BucketSource[]): Array<[string, string]> {
  const keys = new Map<string, string>();
  for (const { groups } of sources)
    for (const [, group] of groups)
      for (const handler of group.hooks) {
        if (handler === null) continue;
        const fields = {
          event,
          matcher: group.matcher ?? null,
          if: handler.if ?? null,
          command: handler.command,
          argv: handler.argv ?? null,
          shell: handler.shell,
        };
        const text = hookKeyText(fields);
        if (!keys.has(text)) keys.set(text, hookKey(fields));
      }
  return [...keys];
}

function writeHead(pinFile: string, head: Head): void {
  replaceFile(tableFile(pinFile, 'head'), JSON.stringify(head));
}

/** The JSON of a regular file of at most TABLE_MAX_BYTES, or null; touches it when `touch`. */
function readJson(file: string, now?: number): unknown {
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

function readHead(pinFile: string, sessionId: string, now?: number): Head | null {
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

/**
 * The part of the pin of `sessionId` that `event` with `input` can match (its matcher field's
 * bucket and `all`), or null when the tables are missing, damaged or of another pin (the caller
 * reads the whole pin). Marks the session used, as readPin does.
 */
export function readPinTable(
  pinFile: string,
  sessionId: string,
  event: EventName,
  input: Readonly<Record<string, unknown>>,
  now = Date.now(),
): PinTable | null {
  const head = readHead(pinFile, sessionId, now);
  if (head === null) return null;
  const listed = head.buckets[event] ?? [];
  if (!Array.isArray(listed)) return null;
  const field = EVENTS[event].matcherField;
  const target = field === null ? undefined : input[field];
  const wanted = ['all'];
  const named = typeof target === 'string' ? nameBucket(target) : null;
  if (named !== null) wanted.push(named);
  const plugins = new Map<string, PinnedPlugin>();
  const bySource = new Map<number, BucketSource>();
  const keys: Array<[string, string]> = [];
  for (const name of wanted) {
    if (!listed.includes(name)) continue;
    const bucket = readJson(tableFile(pinFile, `${event}.${name}`));
    if (!isBucket(bucket) || bucket.pin !== identity(head)) return null;
    if (Array.isArray(bucket.keys)) keys.push(...bucket.keys.filter(isKeyPair));
    for (const plugin of bucket.plugins) plugins.set(plugin.id, plugin);
    for (const source of bucket.sources) {
      const seen = bySource.get(source.s);
      if (seen === undefined) bySource.set(source.s, { ...source, groups: [...source.groups] });
      else seen.groups.push(...source.groups);
    }
  }
  const sources = paddedSources(
    event,
    [...bySource.values()].sort((a, b) => a.s - b.s),
  );
  if (sources === null) return null;
  rememberHookKeys(keys);
  return {
    sessionId,
    pinnedAt: head.pinnedAt,
    snapshotId: head.snapshotId,
    ...(head.projectRoot === undefined ? {} : { projectRoot: head.projectRoot }),
    stopContinuations: head.stopContinuations,
    diagnostics: head.diagnostics,
    plugins: [...plugins.values()],
    sources,
  };
}

/**
 * The sources of a table, each group at its merged index (R2): a source's groups array starts
 * with as many nulls as there are groups of the sources between it and the one before (a null
 * group counts in R2 and runs nothing), and holds nulls where its groups of other buckets were.
 */
function paddedSources(
  event: EventName,
  sources: readonly BucketSource[],
): SourceDocument[] | null {
  let cursor = 0;
  const out: SourceDocument[] = [];
  for (const source of sources) {
    const last = Math.max(...source.groups.map(([i]) => i));
    // Buckets of one pin never overlap; anything else is not a table this hookpm wrote.
    if (source.at < cursor) return null;
    const groups: Array<GroupConfig | null> = new Array(source.at - cursor + last + 1).fill(null);
    for (const [i, group] of source.groups) groups[source.at - cursor + i] = group;
    cursor = source.at + last + 1;
    out.push({
      origin: 'plugin',
      file: source.file,
      config: { [event]: groups },
      plugin: source.plugin,
    });
  }
  return out;
}

/** Sets the Stop continuation count (engine.md O3) in the head of the session's tables. */
export function writeTableStopCount(pinFile: string, sessionId: string, count: number): boolean {
  const head = readHead(pinFile, sessionId);
  if (head === null) return false;
  writeHead(pinFile, { ...head, stopContinuations: count });
  return true;
}

/** The Stop count of the session's tables, the count that counts once they exist; else null. */
export function tableStopCount(pinFile: string, sessionId: string): number | null {
  return readHead(pinFile, sessionId)?.stopContinuations ?? null;
}

/** Removes every table of the pin `pinFile` (its head first, so no reader trusts the rest). */
export function removePinTables(pinFile: string): void {
  const dir = join(pinFile, '..');
  const prefix = `${pinFile.slice(dir.length + 1, -'.json'.length)}.`;
  const head = `${prefix}head`;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  const ours = names.filter((n) => n.startsWith(prefix) && n !== `${prefix}json`);
  for (const name of [...ours.filter((n) => n === head), ...ours.filter((n) => n !== head)])
    try {
      unlinkSync(join(dir, name));
    } catch {
      // Gone already.
    }
}

/** The pin file name a table file belongs to (`<key>.json`), or null for a pin or another file. */
export function pinNameOfTable(name: string): string | null {
  if (name.endsWith('.json') || name.startsWith('.')) return null;
  const dot = name.indexOf('.');
  return dot <= 0 ? null : `${name.slice(0, dot)}.json`;
}

/** When the session's tables were last used (its head's mtime), or 0 without a head. */
export function tablesUsedAt(pinFile: string): number {
  try {
    return statSync(tableFile(pinFile, 'head')).mtimeMs;
  } catch {
    return 0;
  }
}

function isBucket(value: unknown): value is Bucket {
  if (!isPlainObject(value) || value['version'] !== TABLE_VERSION) return false;
  if (typeof value['pin'] !== 'string') return false;
  const { plugins, sources } = value;
  return (
    Array.isArray(plugins) &&
    plugins.every(
      (p) =>
        isPlainObject(p) &&
        ['id', 'version', 'root', 'fingerprint', 'source'].every((k) => typeof p[k] === 'string'),
    ) &&
    Array.isArray(sources) &&
    sources.every(isBucketSource)
  );
}

function isKeyPair(value: unknown): value is [string, string] {
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
