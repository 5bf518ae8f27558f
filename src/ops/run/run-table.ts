import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EventName } from '../../hooks/events.js';
import { readPolicyFile } from '../../store/policy-file.js';
import { LINKED_PIN_FINGERPRINT, PIN_VERSION } from '../../store/session-pin-schema.js';
import { readPinTable, tableStopCount, writePinTables } from '../../store/session-pin-tables.js';
import type { RunnablePlugins } from '../../store/runnable-plugins.js';
import type { StorePaths } from '../../store/store-paths.js';
import type { SourceDocument } from '../../hooks/types.js';
import { isPlainObject } from '../../json/describe-value.js';
import { replaceFile } from '../../store/replace-file.js';
import { fnv1a } from '../../store/cache-shard.js';
import { canonicalProjectRoot } from '../../workspace/canonical-root.js';
import type { GivenPlugins } from './load-snapshot.js';

/**
 * engine.md X10 for `hookpm run`: the plugins that may run now, compiled into the tables a session
 * pin has (store/session-pin-tables.ts: by event and exact matcher value), in the cache directory,
 * keyed on the identity of the state file (state-seal.ts's stateIdentity: device, inode, size,
 * modification and change times in nanoseconds; the state is only ever replaced by a rename, so
 * every write gives another identity).
 * An event then reads the tables' head and at most two of them instead of the whole state and the
 * documents cache. The tables are used only when:
 * - the state file has the identity they were written for (any install, update, enable, disable or
 *   consent since makes another, and the tables are not used, then written again);
 * - the workspace sources (user and project files) are those of the last whole load of that state
 *   in the same scope, whose snapshot id (R3: of the whole configuration) the event then reports;
 * - no administrator's policy file is in force (policy.md A13 is then judged on every plugin, by
 *   the whole load);
 * - every plugin of the tables' part still has its tree (Q6, through the stat cache): one that does
 *   not sends the event through the whole load, which leaves it out and fails closed (B2).
 * A scope is the working directories one set of tables serves, by the canonical project root each
 * is in (docs/guides/projects.md: the key of a project's records). A state that records no project
 * plugins has one scope, `user`, for every directory. One that records some has one per recorded
 * project, `project-<fnv1a of the root>`, whose files name their root (two roots of one name take
 * turns, each seeing the other's files refused), and one, `others`, for every other directory,
 * whose files list the recorded roots it does not serve. Tables are written only for a state whose
 * whole load fails nothing closed and has no linked plugin (D15: read in place at every event).
 * Whoever can write the cache directory can write the state too (both the user's).
 */
export const RUN_TABLE = 'run-tables';

/** The working directories one set of tables serves (see above). */
type Scope =
  | { kind: 'user' }
  | { kind: 'project'; root: string }
  | { kind: 'others'; recorded: readonly string[] };

const USER: Scope = { kind: 'user' };

function scopeName(scope: Scope): string {
  return scope.kind === 'project' ? `project-${fnv1a(scope.root)}` : scope.kind;
}

/** The file of a scope: its tables' pin name (`.json`, see session-pin-tables.ts), `.id`, ... */
function scopeFile(paths: StorePaths, scope: Scope, ext: '.json' | '.id' | '.unqualified'): string {
  return join(paths.cache, RUN_TABLE, `${scopeName(scope)}${ext}`);
}

/** The project root a scope's tables name (the pin's projectRoot); absent but for a project. */
function rootOf(scope: Scope): string | undefined {
  return scope.kind === 'project' ? scope.root : undefined;
}

/** The identity of the last state found not to qualify for tables in `scope` (see above), or null. */
function unqualified(paths: StorePaths, scope: Scope): string | null {
  try {
    return readFileSync(scopeFile(paths, scope, '.unqualified'), 'utf8');
  } catch {
    return null;
  }
}

/**
 * The plugins of the tables that `event` with `input` can match, bound and checked, or null when
 * the tables cannot be used (see above): the caller loads the whole store.
 */
export async function tablePlugins(
  paths: StorePaths,
  identity: string | null,
  at: { event: EventName; input: Readonly<Record<string, unknown>>; cwd: string },
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<TablePlugins | null> {
  if (identity === null || readPolicyFile(env).status !== 'absent') return null;
  const known = await knownScope(paths, identity, at.cwd);
  if (known === null) return null;
  const scope = known.scope;
  const table = readPinTable(scopeFile(paths, scope, '.json'), identity, at.event, at.input);
  if (table === null || table.projectRoot !== rootOf(scope)) return null;
  const checked = table.plugins.filter((p) => p.fingerprint !== LINKED_PIN_FINGERPRINT);
  if (checked.length !== table.plugins.length) return null;
  if (checked.length > 0) {
    const { checkInstalledTrees } = await import('../../store/tree-check.js');
    const found = await checkInstalledTrees(
      paths,
      checked.map((p) => ({ root: p.root, fingerprint: p.fingerprint })),
    );
    if (checked.some((p) => found.get(p.root)?.status !== 'match')) return null;
  }
  return {
    plugins: { sources: table.sources, diagnostics: table.diagnostics, failClosed: [] },
    snapshotIdOf: (workspace) =>
      JSON.stringify(workspace) === known.workspace ? known.snapshotId : undefined,
  };
}

/** The part of the store an event reads from the tables, and the whole snapshot's id (R3). */
export interface TablePlugins {
  plugins: GivenPlugins;
  /**
   * The id of the snapshot of these workspace sources and every plugin of the store, when it was
   * computed for the same workspace sources and state (the last whole load's); else undefined,
   * and the caller loads the whole store (an id must be that of the whole configuration).
   */
  snapshotIdOf: (workspace: readonly SourceDocument[]) => string | undefined;
}

/**
 * Files of an earlier version knew no scopes: its `user.id` may name a state that records project
 * plugins, which is now never read from the user scope.
 */
const KNOWN_ID_VERSION = 2;

/**
 * R3: the id of the last whole load of this state in a scope, the workspace sources it had, and
 * the scope it was for.
 */
interface KnownId {
  version: typeof KNOWN_ID_VERSION;
  identity: string;
  workspace: string;
  snapshotId: string;
  scope: Scope;
}

/**
 * The known id in the file of `scope`, or null: a project's only when written for that root;
 * `others`' list of recorded roots is the file's (the one given is not read).
 */
function readKnownId(paths: StorePaths, scope: Scope): KnownId | null {
  try {
    const known = JSON.parse(readFileSync(scopeFile(paths, scope, '.id'), 'utf8')) as unknown;
    if (!isPlainObject(known)) return null;
    const { version, identity, workspace, snapshotId } = known;
    if (version !== KNOWN_ID_VERSION) return null;
    if (typeof identity !== 'string' || typeof workspace !== 'string') return null;
    if (typeof snapshotId !== 'string' || !/^[0-9a-f]{64}$/.test(snapshotId)) return null;
    const written = scopeIn(known['scope']);
    if (written === null || written.kind !== scope.kind) return null;
    if (written.kind === 'project' && written.root !== rootOf(scope)) return null;
    return { version, identity, workspace, snapshotId, scope: written };
  } catch {
    return null;
  }
}

/** A scope as a known id holds it, checked; null for anything else. */
function scopeIn(value: unknown): Scope | null {
  if (!isPlainObject(value)) return null;
  if (value['kind'] === 'user') return USER;
  if (value['kind'] === 'project' && typeof value['root'] === 'string')
    return { kind: 'project', root: value['root'] };
  const recorded = value['recorded'];
  if (value['kind'] === 'others' && Array.isArray(recorded))
    return recorded.every((root) => typeof root === 'string')
      ? { kind: 'others', recorded: recorded as string[] }
      : null;
  return null;
}

/**
 * The scope of `cwd` whose last whole load was of the state `identity`, with what it knows: the
 * user's when that state records no project plugins; else the project's `cwd` is in, or `others`
 * when that project records none (its root is not among those `others` lists); null when none
 * holds (the caller loads the whole store). The project root is looked for only past `user`.
 */
async function knownScope(
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
  const others = readKnownId(paths, { kind: 'others', recorded: [] });
  if (others?.identity !== identity || others.scope.kind !== 'others') return null;
  return others.scope.recorded.includes(root) ? null : others;
}

/**
 * The scope a whole load's plugins serve (see above), from what its state records and the project
 * key it looked the records up with; null when it found none (no tables).
 */
function scopeOf(records: RunnablePlugins['records']): Scope | null {
  if (records.projectRoots.length === 0) return USER;
  const key = records.projectKey;
  if (key === null) return null;
  return records.projectRoots.includes(key)
    ? { kind: 'project', root: key }
    : { kind: 'others', recorded: records.projectRoots };
}

/**
 * After a whole load of the store that nothing failed closed in: records its snapshot id for its
 * workspace sources, and writes the tables for the state, when it qualifies (see above) and has
 * none yet, from the plugins that load answered (`runnable`, loaded with `presume` and the policy
 * of `env`: the state is not read again); never throws (the tables are a cache). `identity` is the
 * state's, taken before the whole load read it, so tables and id are never labelled with an
 * identity newer than what they were made from.
 */
export function writeRunTable(
  paths: StorePaths,
  identity: string | null,
  whole: { workspace: readonly SourceDocument[]; snapshotId: string; runnable: RunnablePlugins },
  env: Readonly<Record<string, string | undefined>> = process.env,
): void {
  try {
    if (identity === null) return;
    const inForce = readPolicyFile(env);
    if (inForce.status !== 'absent') return;
    const loaded = whole.runnable;
    const scope = scopeOf(loaded.records);
    if (scope === null) return;
    mkdirSync(join(paths.cache, RUN_TABLE), { recursive: true });
    const known: KnownId = {
      version: KNOWN_ID_VERSION,
      identity,
      workspace: JSON.stringify(whole.workspace),
      snapshotId: whole.snapshotId,
      scope,
    };
    replaceFile(scopeFile(paths, scope, '.id'), JSON.stringify(known));
    // Tables for this state exist (the event could not use them: a tree changed), or this state
    // was found not to qualify: nothing to write again.
    const file = scopeFile(paths, scope, '.json');
    if (tableStopCount(file, identity) !== null || unqualified(paths, scope) === identity) return;
    if (
      loaded.records.linked ||
      loaded.failClosed.length > 0 ||
      loaded.plugins.some((p) => p.record.linked === true)
    )
      return writeFileSync(scopeFile(paths, scope, '.unqualified'), identity);
    const pinned = loaded.plugins.filter((p) => p.sources.length > 0);
    writePinTables(file, {
      version: PIN_VERSION,
      sessionId: identity,
      agent: 'run',
      // Fixed, so that two events writing the tables of one state at once write the same files
      // (a bucket carries the pin's time and id, and a reader refuses one of another pin).
      pinnedAt: new Date(0).toISOString(),
      snapshotId: identity,
      plugins: pinned.map(({ record }) => ({
        id: record.id,
        version: record.version,
        root: record.path,
        fingerprint: record.fingerprint,
        source: record.source,
      })),
      sources: pinned.flatMap((p) => p.sources),
      diagnostics: loaded.diagnostics,
      stopContinuations: 0,
      ...(scope.kind === 'project' ? { projectRoot: scope.root } : {}),
    });
  } catch {
    // A cache: the next event loads the whole store again.
  }
}
