import { applyFailClosed, failClosedOn, type FailClosedOptions } from '../../engine/fail-closed.js';
import type { DispatchResult } from '../../engine/types.js';
import type { Diagnostic } from '../../hooks/diagnostic.js';
import type { FailClosed } from '../../hooks/fail-closed-entry.js';
import type { EventName } from '../../hooks/events.js';
import { matchHandlers } from '../../hooks/snapshot/snapshot-match.js';
import { buildSnapshot } from '../../hooks/snapshot/snapshot.js';
import type { SourceDocument } from '../../hooks/types.js';
import type { PinnedPlugin } from '../../store/session-pin-schema.js';
import type { StorePaths } from '../../store/store-paths.js';
import { changedPlugins, type ChangedPlugins } from '../steps/host/changed-plugins.js';
import { withFailOpen } from '../steps/host/fail-open.js';
import { isFailedRun } from '../steps/decision-log/run-outcome.js';
import { openHost, type Host } from '../steps/host/host.js';
import type { LoadedSnapshot } from './load-snapshot.js';

/** The host one session dispatch uses, and the `plugin_tampered` notes it adds to the result. */
export interface CheckedHost {
  host: Host;
  diagnostics: Diagnostic[];
  /**
   * engine.md B2 after the dispatch: a plugin whose handler failed in `result` (an exit other
   * than 0 and 2, a signal, a timeout, no launch) and whose tree changed or went while it ran (an
   * uninstall or an update meanwhile, which the check before it ran could not see) fails closed
   * on it, as if that check had found it. Else `result` as it is.
   */
  recheck(result: DispatchResult, stop: FailClosedOptions): Promise<DispatchResult>;
}

/** A session snapshot's plugin trees, checked again before their handlers run. */
export interface SessionTrees {
  /**
   * The host for a dispatch of `event` with `input`, its handlers run in `cwd` (matchHandlers'
   * MatchOptions): `host` itself when every plugin about to run
   * still has the tree it was loaded from; else one whose snapshot (same id) leaves the changed
   * ones out, and fails closed on them. Throws, synchronously, what reading `input` throws.
   */
  hostFor(
    event: EventName,
    input: Readonly<Record<string, unknown>>,
    cwd: string | undefined,
  ): Promise<CheckedHost>;
}

/**
 * docs/reference/rules/engine.md#fail-closed (B2, B4) in a session: the snapshot a session keeps
 * (R1) holds the documents of each plugin as its tree was at the load (plugins.md Q6), but its
 * handlers run the files of the tree as they are. So, as for a linked agent's pin, the trees of the
 * plugins about to run are checked before each dispatch (through the stat cache), and one that
 * changed or went since is left out of that dispatch and fails closed on it, with the fix, until
 * `reload` reads the store again; one whose handler failed is checked again after it ran
 * (CheckedHost.recheck). A linked plugin (plugins.md D15) is not held to a fingerprint.
 * `home` is the session's user home, which `~/` of `if` path rules names as the plugins about to
 * run are matched (engine.md F2).
 */
export function sessionTrees(
  loaded: LoadedSnapshot,
  host: Host,
  store: StorePaths,
  home: string,
): SessionTrees {
  const held = new Map<string, { plugin: PinnedPlugin; sources: SourceDocument[] }>();
  for (const { record, sources, project } of loaded.runnable?.plugins ?? []) {
    if (record.linked === true || sources.length === 0) continue;
    // As pinnedPluginOf (a linked plugin is skipped above), written out: importing it would split
    // the pin schema into a chunk of its own, one more file for every command that reads pins.
    const { id, version, path: root, fingerprint, source } = record;
    const plugin = { id, version, root, fingerprint, source, ...(project ? { project } : {}) };
    held.set(id, { plugin, sources });
  }
  /** What changedPlugins says of `plugins`' trees now, each entry with the session's fix. */
  const changedNow = async (plugins: PinnedPlugin[]): Promise<ChangedPlugins> => {
    // The hashing code loads only when a plugin is about to run.
    const { checkInstalledTrees } = await import('../../store/tree-check.js');
    const found = await checkInstalledTrees(
      store,
      plugins.map((p) => ({ root: p.root, fingerprint: p.fingerprint })),
    );
    const changed = await changedPlugins(plugins, found, (id) => held.get(id)?.sources ?? []);
    return { ...changed, failClosed: changed.failClosed.map(reloadFix) };
  };

  const recheck = async (
    plugins: PinnedPlugin[],
    result: DispatchResult,
    stop: FailClosedOptions,
  ): Promise<DispatchResult> => {
    const failed = new Set(result.runs.filter(isFailedRun).map((r) => r.plugin));
    const ran = plugins.filter((p) => failed.has(p.id));
    if (ran.length === 0) return result;
    const changed = await changedNow(ran);
    const entries = failClosedOn(withFailOpen(changed.failClosed, host.settings), result.event);
    if (entries.length === 0) return result;
    const out = applyFailClosed(result, entries, stop);
    out.diagnostics.unshift(...changed.diagnostics);
    return out;
  };

  /** The host of a dispatch that runs `plugins`: `host`, else one that fails closed on changed. */
  const checkTrees = async (plugins: PinnedPlugin[]): Promise<CheckedHost> => {
    const later = (result: DispatchResult, stop: FailClosedOptions): Promise<DispatchResult> =>
      recheck(plugins, result, stop);
    const changed = await changedNow(plugins);
    if (changed.ids.size === 0) return { host, diagnostics: [], recheck: later };
    const kept = (loaded.runnable?.sources ?? []).filter(
      (s) => !changed.ids.has(s.plugin?.id ?? ''),
    );
    const snapshot = buildSnapshot({
      id: host.snapshot.id,
      projectDir: host.snapshot.projectDir,
      sources: [...loaded.workspace.sources, ...kept],
    });
    const failClosed = [...loaded.failClosed, ...changed.failClosed];
    const narrowed = openHost({ snapshot, store, source: 'session', failClosed });
    return { host: narrowed, diagnostics: changed.diagnostics, recheck: later };
  };

  return {
    hostFor(event, input, cwd) {
      const same = { host, diagnostics: [], recheck: asItIs };
      // Matching reads only the matcher and `if` fields: a payload nested too deep (B5) is walked
      // once, by dispatchEvent, which refuses it; checking its trees first only costs the check.
      if (held.size === 0) return Promise.resolve(same);
      // Synchronous, before any await: a payload getter or proxy trap that throws here throws to
      // the caller, which rejects the dispatch as unreadable input (E_USAGE, engine.md B1).
      const matched = matchHandlers(host.snapshot, event, input, { home, cwd });
      const running = new Set(matched.map((h) => h.plugin));
      const checked = [...held.values()].filter((p) => running.has(p.plugin.id));
      if (checked.length === 0) return Promise.resolve(same);
      return checkTrees(checked.map((p) => p.plugin));
    },
  };
}

/**
 * A session's snapshot outlives an update or an uninstall done meanwhile (R1): the tree it holds
 * goes, and only `reload` takes the change, so the reason names it beside the repair commands.
 */
function reloadFix(entry: FailClosed): FailClosed {
  return {
    ...entry,
    reason: `${entry.reason}; if it was updated or uninstalled after this session started, \`reload\` the session`,
  };
}

const asItIs = (result: DispatchResult): Promise<DispatchResult> => Promise.resolve(result);
