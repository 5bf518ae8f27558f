import { basename, dirname, resolve, sep } from 'node:path';
import { sanitizesTo } from '../plugin/data-id.js';
import type { PluginRecord, State } from './state/state-schema.js';
import { lazyEntriesOf } from './state/lazy-records.js';

/**
 * The installed trees a state's records name, for collection (collect.ts, registry.md D4): every
 * record, user-wide and of every project, or of a state read entry by entry (S42) those read so
 * far, and the plugin directories a transaction touched (S41).
 */

/**
 * Each record of `state` with the key of its scope ('' user-wide, else the project's root):
 * user-wide and of every project (docs/guides/projects.md: the store is shared by every project).
 */
export function* eachRecord(state: State): Generator<[string, PluginRecord]> {
  for (const plugin of Object.values(state.plugins)) yield ['', plugin];
  yield* eachProjectRecord(state);
}

function* eachProjectRecord(state: State): Generator<[string, PluginRecord]> {
  for (const [root, project] of Object.entries(state.projects ?? {}))
    for (const plugin of Object.values(project.plugins)) yield [root, plugin];
}

/** Of a state read entry by entry (registry.md S42): the user-wide records read or set so far, and every project's. */
export function* readRecords(state: State): Generator<[string, PluginRecord]> {
  for (const plugin of lazyEntriesOf(state.plugins)?.values.values() ?? []) yield ['', plugin];
  yield* eachProjectRecord(state);
}

/**
 * The records of `state` that may name a tree in the plugin directories `dirs` (every record when
 * null): of a state read entry by entry (registry.md S42), a state hookpm wrote, where every
 * installed tree of a plugin is in that plugin's own directory (layout.ts), the user-wide records
 * of the ids those directories are for, every record read so far and every project's; of any
 * other state, every record.
 */
export function* recordsIn(
  state: State,
  dirs: readonly string[] | null,
): Generator<[string, PluginRecord]> {
  const lazy = lazyEntriesOf(state.plugins);
  if (lazy === undefined || dirs === null) {
    yield* eachRecord(state);
    return;
  }
  const ids = new Set(lazy.values.keys());
  const keys = [...lazy.keys.keys()].join('\n');
  for (const dir of dirs)
    for (const id of idsNaming(keys, basename(dir))) if (lazy.keys.has(id)) ids.add(id);
  for (const id of ids) yield ['', state.plugins[id]!];
  yield* eachProjectRecord(state);
}

/** A name's readable part is followed by `-` and 12 hex characters (sanitizePluginId). */
const HASHED = /^([A-Za-z0-9_-]*)-[0-9a-f]{12}$/;

/**
 * The lines of `keys` (ids joined by line breaks) whose sanitized form (sanitizePluginId) is
 * `name`. Found by one pattern over the whole text, its readable part with each `-` standing for
 * itself or any code point it replaces, each line found then checked (sanitizesTo): thousands of
 * ids make no loop of JS, which in a command costs more to compile than to run (engine.md X10).
 */
function idsNaming(keys: string, name: string): string[] {
  const readable = HASHED.exec(name)?.[1];
  if (readable === undefined) return [];
  const pattern = readable.replaceAll('-', '[^A-Za-z0-9_\\n]');
  const found: string[] = [];
  for (const [id] of keys.matchAll(new RegExp(`^${pattern}$`, 'gmu')))
    if (sanitizesTo(id, name)) found.push(id);
  return found;
}

/**
 * The installed versions a record names, each with its tree and fingerprint: the active one, its
 * pending update and its previous one (`hookpm rollback`'s tree stays until the next update
 * replaces it).
 */
export function versionsOf(plugin: PluginRecord): Array<{ path: string; fingerprint: string }> {
  const versions: Array<{ path: string; fingerprint: string }> = [plugin];
  if (plugin.pending != null) versions.push(plugin.pending);
  if (plugin.previous !== undefined) versions.push(plugin.previous);
  return versions;
}

/** The trees a record names (versionsOf), as written. */
function treesOf(plugin: PluginRecord): string[] {
  return versionsOf(plugin).map((version) => version.path);
}

/** Every installed tree the records name, normalised. */
export function namedTrees(records: Iterable<[string, PluginRecord]>): Set<string> {
  const named = new Set<string>();
  for (const [, plugin] of records) for (const tree of treesOf(plugin)) named.add(normal(tree));
  return named;
}

/**
 * The trees each record of `state` names (treesOf), joined by NUL, keyed by scope and plugin id:
 * what touchedDirs compares. Of a state read entry by entry (registry.md S42) only the user-wide
 * records read or set so far: a record first read after `before` was taken is missing from it, so
 * its trees count as touched, and one never read was not changed.
 */
export function recordTrees(state: State): Map<string, string> {
  const trees = new Map<string, string>();
  const records =
    lazyEntriesOf(state.plugins) === undefined ? eachRecord(state) : readRecords(state);
  for (const [scope, plugin] of records)
    trees.set(`${scope}\0${plugin.id}`, treesOf(plugin).join('\0'));
  return trees;
}

/**
 * registry.md S41: the plugin directories of the trees whose records differ between `before` and
 * `after` (recordTrees of the state before and after a transaction), the trees of both.
 */
export function touchedDirs(
  before: ReadonlyMap<string, string>,
  after: ReadonlyMap<string, string>,
): Set<string> {
  const dirs = new Set<string>();
  const add = (trees: string): void => {
    for (const tree of trees.split('\0')) dirs.add(dirname(normal(tree)));
  };
  for (const [key, trees] of before) if (after.get(key) !== trees) add(trees);
  for (const [key, trees] of after) if (before.get(key) !== trees) add(trees);
  return dirs;
}

/** Paths hookpm writes are absolute and normal: those are taken as they are (resolve costs µs). */
const NOT_NORMAL = /\/\/|\/\.\.?(?:\/|$)|\/$/;

/** `path` resolved, as compared with the paths collection lists. */
export function normal(path: string): string {
  return sep === '/' && path.startsWith('/') && !NOT_NORMAL.test(path) ? path : resolve(path);
}
