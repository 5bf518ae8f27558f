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
 * Each set of tables serves a scope of working directories (run-table-scope.ts). Tables are
 * written only for a state whose whole load fails nothing closed and has no linked plugin (D15:
 * read in place at every event).
 * Whoever can write the cache directory can write the state too (both the user's).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { readRegularText } from '../../io/read-regular-file.js';
import { join } from 'node:path';
import type { EventName } from '../../hooks/events.js';
import { readPolicyFile } from '../../store/policy-file.js';
import { LINKED_PIN_FINGERPRINT, PIN_VERSION } from '../../store/session-pin-schema.js';
import { readPinTable, tableStopCount, writePinTables } from '../../store/session-pin-tables.js';
import type { RunnablePlugins } from '../../store/runnable-plugins.js';
import type { StorePaths } from '../../store/store-paths.js';
import type { SourceDocument } from '../../hooks/types.js';
import type { GivenPlugins } from './load-snapshot.js';
import {
  knownScope,
  rootOf,
  RUN_TABLE,
  scopeFile,
  scopeOf,
  writeKnownId,
  type TableScope,
} from './run-table-scope.js';

/** The identity of the last state found not to qualify for tables in `scope` (see above), or null. */
function unqualified(paths: StorePaths, scope: TableScope): string | null {
  try {
    // A FIFO or a device in its place is refused, never waited on.
    return readRegularText(scopeFile(paths, scope, '.unqualified'), { maxBytes: 64 * 1024 });
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
  const table = readPinTable(scopeFile(paths, known.scope, '.json'), identity, at.event, at.input);
  if (table === null || table.projectRoot !== rootOf(known.scope)) return null;
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
    writeKnownId(paths, {
      identity,
      workspace: JSON.stringify(whole.workspace),
      snapshotId: whole.snapshotId,
      scope,
      recorded: loaded.records.projectRoots,
    });
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
