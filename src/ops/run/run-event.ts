import type { DispatchResult } from '../../engine/types.js';
import type { EventName } from '../../hooks/events.js';
import { openHost } from '../steps/host/host.js';
import { matchHandlers, type MatchOptions } from '../../hooks/snapshot/snapshot-match.js';
import { nestsDeeperThan } from '../../json/nesting-depth.js';
import type { LoadedSnapshot } from './load-snapshot.js';
import { loadTrustedSnapshot, type LoadTrustedSnapshotOptions } from './load-trusted-snapshot.js';
import { stateIdentity } from '../../store/state/state-seal.js';
import { tablePlugins, writeRunTable } from './run-table.js';

export interface RunEventOptions extends LoadTrustedSnapshotOptions {
  event: EventName;
  /** The event's own fields (the `--payload` object); common fields are filled in (X2). */
  input: Readonly<Record<string, unknown>>;
  /** Consecutive Stop continuations so far (O3); default 0. */
  continuationCount?: number;
  /** The environment handlers inherit, less secrets (X5); default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  signal?: AbortSignal;
}

/**
 * `hookpm run <Event>` (docs/reference/rules/cli.md#commands, #json-shapes): loads the
 * configuration for `cwd` the way `hookpm hooks` does (workspace trust resolved once,
 * docs/reference/rules/engine.md#workspace-trust; enabled plugins from `store`), dispatches the one
 * event with `cwd` as the invocation's working directory, and returns the result with the
 * snapshot's diagnostics (rejected matchers, tampered plugins, trust notes) and a settings.json
 * that could not be used ahead of the run's. The user settings of `store` name the variables passed
 * through X5 (`env.pass`) and whether the dispatch is logged (docs/guides/decision-log.md). An
 * enabled plugin that cannot run as consented, or a state that cannot be read, fails closed
 * (docs/reference/rules/engine.md#fail-closed).
 */
export async function runEvent(options: RunEventOptions): Promise<DispatchResult> {
  const { event, input, continuationCount, env, signal, ...load } = options;
  // engine.md X10: the store's tables when they hold this state, else the whole store (and the
  // tables are written for the next event).
  const store = load.plugins === undefined && !nestsDeeperThan(input) ? load.store : undefined;
  const identity = store === undefined ? null : stateIdentity(store);
  const fromTable =
    store === undefined
      ? null
      : await tablePlugins(store, identity, { event, input, cwd: load.cwd });
  let known = fromTable !== null;
  const tabled =
    fromTable === null
      ? null
      : await loadTrustedSnapshot({
          ...load,
          plugins: fromTable.plugins,
          snapshotIdOf: (workspace) => {
            const id = fromTable.snapshotIdOf(workspace);
            known = id !== undefined;
            return id;
          },
        });
  // The whole store, when the tables could not be used: its plugins then make the tables.
  const whole =
    tabled !== null && known ? null : await loadTrustedSnapshot({ ...load, presume: true });
  const { snapshot, failClosed, workspace } =
    whole === null
      ? tabled!
      : await checkedSnapshot(whole, event, input, { home: load.home, cwd: options.cwd });
  const host = openHost({
    snapshot,
    source: 'run',
    failClosed,
    ...(options.store === undefined ? {} : { store: options.store }),
  });
  const result = await host.dispatch(event, input, {
    cwd: options.cwd,
    home: load.home,
    ...(continuationCount === undefined ? {} : { continuationCount }),
    ...(env === undefined ? {} : { env }),
    ...(signal === undefined ? {} : { signal }),
  });
  const diagnostics = [...snapshot.diagnostics, ...host.settingsDiagnostics, ...result.diagnostics];
  if (store !== undefined && whole?.runnable !== undefined && failClosed.length === 0)
    writeRunTable(store, identity, {
      workspace: workspace.sources,
      snapshotId: snapshot.id,
      runnable: whole.runnable,
    });
  return { ...result, diagnostics };
}

/**
 * engine.md X10, Q6: the snapshot with the trees of the plugins about to run checked (the others
 * were loaded from the documents cache without a tree walk); a tampered one is left out and fails
 * closed before anything runs. `how`: the user's home, which `~/` of `if` path rules names, and the
 * directory the handlers run in.
 */
async function checkedSnapshot(
  loaded: LoadedSnapshot,
  event: EventName,
  input: Readonly<Record<string, unknown>>,
  how: MatchOptions,
): Promise<LoadedSnapshot> {
  if (loaded.recheck === undefined || nestsDeeperThan(input)) return loaded;
  const running = new Set(
    matchHandlers(loaded.snapshot, event, input, how).flatMap((h) =>
      h.plugin === null ? [] : [h.plugin],
    ),
  );
  return running.size === 0 ? loaded : loaded.recheck(running);
}
