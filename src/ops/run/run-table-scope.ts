import { join } from 'node:path';
import { readRegularText } from '../../io/read-regular-file.js';
import { isPlainObject } from '../../json/describe-value.js';
import { fnv1a } from '../../text/fnv1a.js';
import { replaceFile } from '../../store/replace-file.js';
import type { RunnablePlugins } from '../../store/runnable-plugins.js';
import type { StorePaths } from '../../store/store-paths.js';
import { canonicalProjectRoot } from '../../workspace/canonical-root.js';

/**
 * engine.md X11: which set of `hookpm run` tables (run-table.ts) serves a working directory, by the
 * canonical project root it is in (docs/guides/projects.md: the key of a project's records). A
 * state that records no project plugins has one scope, `user`, for every directory. One that
 * records some has one per recorded project, `project-<fnv1a of the root>`, whose files name their
 * root (two roots of one name take turns, each seeing the other's files refused), and one,
 * `others`, for every other directory, whose known id lists the recorded roots it does not serve.
 * A scope's files are `<name>.id` (its known id, below), `<name>.json` (the name of its tables'
 * pin, store/session-pin-tables.ts) and `<name>.unqualified`.
 */
export type TableScope = { kind: 'user' } | { kind: 'others' } | { kind: 'project'; root: string };

/** The directory of every scope's files, in the cache directory. */
export const RUN_TABLE = 'run-tables';

const USER: TableScope = { kind: 'user' };
const OTHERS: TableScope = { kind: 'others' };

/** The file of `scope` with extension `ext`. */
export function scopeFile(
  paths: StorePaths,
  scope: TableScope,
  ext: '.json' | '.id' | '.unqualified',
): string {
  const name = scope.kind === 'project' ? `project-${fnv1a(scope.root)}` : scope.kind;
  return join(paths.cache, RUN_TABLE, `${name}${ext}`);
}

/** The project root a scope's tables name (the pin's projectRoot); absent but for a project. */
export function rootOf(scope: TableScope): string | undefined {
  return scope.kind === 'project' ? scope.root : undefined;
}

/**
 * Files of an earlier version knew no scopes: its `user.id` may name a state that records project
 * plugins, which is now never read from the user scope.
 */
const KNOWN_ID_VERSION = 2;

/**
 * R3: the id of the last whole load of a state in a scope, the workspace sources it had, the scope
 * it was for, and the project roots that state records.
 */
export interface KnownId {
  version: typeof KNOWN_ID_VERSION;
  identity: string;
  workspace: string;
  snapshotId: string;
  scope: TableScope;
  recorded: readonly string[];
}

/** A known id of this version, without its version. */
export type KnownIdFields = Omit<KnownId, 'version'>;

/** Replaces the known id of `known.scope`; the caller ignores a failure (the tables are a cache). */
export function writeKnownId(paths: StorePaths, known: KnownIdFields): void {
  const file = scopeFile(paths, known.scope, '.id');
  replaceFile(file, JSON.stringify({ version: KNOWN_ID_VERSION, ...known }));
}

/**
 * The scope a whole load's plugins serve (see above), from what its state records and the project
 * key it looked the records up with; null when it found none (no tables).
 */
export function scopeOf(records: RunnablePlugins['records']): TableScope | null {
  if (records.projectRoots.length === 0) return USER;
  const key = records.projectKey;
  if (key === null) return null;
  return records.projectRoots.includes(key) ? { kind: 'project', root: key } : OTHERS;
}

/**
 * The known id of the scope of `cwd` whose last whole load was of the state `identity`: the user's
 * when that state records no project plugins; else the project's `cwd` is in, or `others` when
 * that project records none (its root is not among those the state records); null when none holds
 * (the caller loads the whole store). The project root is looked for only past `user`.
 */
export async function knownScope(
  paths: StorePaths,
  identity: string,
  cwd: string,
): Promise<KnownId | null> {
  const user = readKnownId(paths, USER);
  if (user?.identity === identity) return user;
  const root = await canonicalProjectRoot(cwd).catch(() => null);
  if (root === null) return null;
  const project = readKnownId(paths, { kind: 'project', root });
  if (project?.identity === identity) return project;
  const others = readKnownId(paths, OTHERS);
  return others?.identity === identity && !others.recorded.includes(root) ? others : null;
}

/** A known id larger than this is not read (it lists the recorded project roots). */
const KNOWN_ID_MAX_BYTES = 16 * 1024 * 1024;

/** The known id in the file of `scope`, or null: a project's only when written for that root. */
function readKnownId(paths: StorePaths, scope: TableScope): KnownId | null {
  try {
    // A FIFO or a device in its place is refused, never waited on (then the whole store loads).
    const text = readRegularText(scopeFile(paths, scope, '.id'), { maxBytes: KNOWN_ID_MAX_BYTES });
    const known = JSON.parse(text) as unknown;
    if (!isPlainObject(known)) return null;
    const { version, identity, workspace, snapshotId, recorded } = known;
    if (version !== KNOWN_ID_VERSION) return null;
    if (typeof identity !== 'string' || typeof workspace !== 'string') return null;
    if (typeof snapshotId !== 'string' || !/^[0-9a-f]{64}$/.test(snapshotId)) return null;
    if (!Array.isArray(recorded) || !recorded.every((root) => typeof root === 'string'))
      return null;
    const written = known['scope'];
    if (!isPlainObject(written) || written['kind'] !== scope.kind) return null;
    if (written['root'] !== rootOf(scope)) return null;
    return { version, identity, workspace, snapshotId, scope, recorded: recorded as string[] };
  } catch {
    return null;
  }
}
