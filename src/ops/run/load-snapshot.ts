import type { FailClosed } from '../../hooks/fail-closed-entry.js';
import type { Diagnostic } from '../../hooks/diagnostic.js';
import { buildSnapshot, type Snapshot } from '../../hooks/snapshot/snapshot.js';
import type { SourceDocument } from '../../hooks/types.js';
import type { RunnablePlugins } from '../../store/runnable-plugins.js';
import type { StorePaths } from '../../store/store-paths.js';
import { readHookSources, type HookSources } from '../../workspace/read-hook-sources.js';
import { loadPluginSources } from '../steps/host/plugin-sources.js';

export interface LoadSnapshotOptions {
  cwd: string;
  /** The user's home directory (the user file lives under it). */
  home: string;
  /** Workspace trust, already decided by the caller (docs/reference/rules/engine.md#workspace-trust). */
  trustProject: boolean;
  /** T6: the SHA-256 the project file's bytes must still have (see readHookSources). */
  expectedProjectSha256?: string | null;
  /** Diagnostics of deciding trust (T3 warnings), reported before the sources' own. */
  trustDiagnostics?: readonly Diagnostic[];
  /** Documents of enabled plugins and the diagnostics of loading them (S6), when known. */
  plugins?: GivenPlugins;
  /** The store whose enabled plugins contribute (plugins.md Q4, Q6), when `plugins` is not given. */
  store?: StorePaths;
  /**
   * engine.md X10: plugins whose cached documents match their records are loaded without
   * checking their trees; `recheck` then checks those about to run.
   */
  presume?: boolean;
  /**
   * engine.md X10, R3: the snapshot id of the whole configuration when the caller knows it for
   * these workspace sources without hashing (the `plugins` given are then a part of the store's);
   * undefined: computed from the sources.
   */
  snapshotIdOf?: (workspace: readonly SourceDocument[]) => string | undefined;
}

/** Plugin documents a caller loaded itself, and what fails closed among them (absent: nothing). */
export interface GivenPlugins {
  sources: readonly SourceDocument[];
  diagnostics: readonly Diagnostic[];
  failClosed?: readonly FailClosed[];
}

export interface LoadedSnapshot {
  snapshot: Snapshot;
  /**
   * The plugins that cannot run as consented, and a state that cannot be read: what the host fails
   * closed on (docs/reference/rules/engine.md#fail-closed).
   */
  failClosed: readonly FailClosed[];
  /** What was read from the workspace, for trust checks (T4, T6) and reports. */
  workspace: HookSources;
  /**
   * With `presume`: the snapshot again after checking the trees (Q6) of those of `plugins` that
   * were loaded unchecked, each left out and failing closed when it no longer matches; the same
   * snapshot when none of them was unchecked.
   */
  recheck?: (plugins: ReadonlySet<string>) => Promise<LoadedSnapshot>;
  /**
   * When the plugins were loaded from `store` (not given): what the store's whole load answered,
   * each runnable plugin with its record (engine.md X11: the run tables are made from it).
   */
  runnable?: RunnablePlugins;
}

/** Reads the project and user files, adds plugin documents and builds the snapshot (R1). */
export async function loadSnapshot(options: LoadSnapshotOptions): Promise<LoadedSnapshot> {
  const store = options.store;
  const presume = options.plugins === undefined && store !== undefined && options.presume === true;
  const [workspace, plugins] = await Promise.all([
    readHookSources(options),
    options.plugins ??
      (store === undefined
        ? { sources: [], diagnostics: [], failClosed: [] }
        : loadPluginSources(store, presume ? { presume } : {}, options.cwd)),
  ]);
  const loaded = build(options, workspace, plugins);
  if ('runnable' in plugins) loaded.runnable = plugins.runnable;
  if (!presume || !('presumed' in plugins) || plugins.presumed.length === 0) return loaded;
  const unchecked = new Set(plugins.presumed);
  const recheck = async (running: ReadonlySet<string>): Promise<LoadedSnapshot> => {
    const only = new Set([...running].filter((id) => unchecked.has(id)));
    if (only.size === 0) return loaded;
    const checked = await loadPluginSources(store!, { only }, options.cwd);
    return build(options, workspace, {
      sources: [
        ...plugins.sources.filter((s) => !only.has(s.plugin?.id ?? '')),
        ...checked.sources,
      ],
      diagnostics: [...plugins.diagnostics, ...checked.diagnostics],
      failClosed: [...(plugins.failClosed ?? []), ...checked.failClosed],
    });
  };
  return { ...loaded, recheck };
}

function build(
  options: LoadSnapshotOptions,
  workspace: HookSources,
  plugins: GivenPlugins,
): LoadedSnapshot {
  const id = options.snapshotIdOf?.(workspace.sources);
  const snapshot = buildSnapshot({
    ...(id === undefined ? {} : { id }),
    projectDir: workspace.projectDir,
    sources: [...workspace.sources, ...plugins.sources],
    diagnostics: [
      ...(options.trustDiagnostics ?? []),
      ...workspace.diagnostics,
      ...plugins.diagnostics,
    ],
  });
  return { snapshot, workspace, failClosed: plugins.failClosed ?? [] };
}
