import { readdirSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { EVENTS, EVENT_NAMES, type EventName } from '../hooks/events.js';
import { compileMatcher } from '../hooks/matcher.js';
import type { GroupConfig, SourceDocument } from '../hooks/types.js';
import { hookKey, hookKeyText, rememberHookKeys } from '../plugin/hook-key.js';
import type { PinnedPlugin, SessionPin } from './session-pin-schema.js';
import { replaceFile } from './replace-file.js';
import {
  identity,
  isBucket,
  isKeyPair,
  nameBucket,
  readHead,
  readJson,
  tableFile,
  TABLE_VERSION,
  writeHead,
  type Bucket,
  type BucketSource,
  type Head,
} from './session-pin-table-files.js';

/**
 * engine.md X10: the part of a session pin a linked event can match, read from the pin's tables
 * (session-pin-table-files.ts) instead of the whole pin.
 */
export interface PinTable extends Omit<Head, 'version' | 'buckets'> {
  /** The pinned plugins of `sources`. */
  plugins: PinnedPlugin[];
  /** The pin's sources that hold a group of the event that can match, padded (paddedSources). */
  sources: SourceDocument[];
}

/** The bucket a group's matcher puts it in on `event`: `all`, or `n-<hex>` per exact name. */
function bucketsOf(group: GroupConfig, event: EventName): string[] {
  const compiled = compileMatcher(group.matcher ?? null, event);
  if (!compiled.ok || compiled.matcher.kind !== 'exact') return ['all'];
  const names = compiled.matcher.names.map((name) => nameBucket(name));
  return names.some((n) => n === null) ? ['all'] : [...new Set(names as string[])];
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

/**
 * The part of the pin of `sessionId` that `event` with `input` can match (its matcher field's
 * bucket, the buckets of the agent's `aliases` of that value (cli.md W4), and `all`), or null
 * when the tables are missing, damaged or of another pin (the caller reads the whole pin). Marks
 * the session used, as readPin does.
 */
export function readPinTable(
  pinFile: string,
  sessionId: string,
  event: EventName,
  input: Readonly<Record<string, unknown>>,
  aliases: readonly string[] = [],
  now = Date.now(),
): PinTable | null {
  const head = readHead(pinFile, sessionId, now);
  if (head === null) return null;
  const listed = head.buckets[event] ?? [];
  if (!Array.isArray(listed)) return null;
  const field = EVENTS[event].matcherField;
  const target = field === null ? undefined : input[field];
  const wanted = new Set(['all']);
  // A name too long for a bucket of its own matches only groups of `all` (bucketsOf).
  if (typeof target === 'string')
    for (const name of [target, ...aliases]) wanted.add(nameBucket(name) ?? 'all');
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
