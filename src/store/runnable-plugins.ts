import type { FailClosed } from '../hooks/fail-closed-entry.js';
import { diagnostic, type Diagnostic } from '../hooks/diagnostic.js';
import type { SourceDocument } from '../hooks/types.js';
import { compareCodeUnits } from '../json/compare.js';
import type { ScanOptions, TreeScan } from './fingerprint-cache.js';
import { readDocumentsCache } from './plugin-documents-cache.js';
import { failingState } from './fail-closed-plugin.js';
import { pluginDataDirs } from './plugin-dirs.js';
import { bindPlugin } from './bind-plugin.js';
import { documentsOf, readCreated, readLinked, type PluginRead } from './plugin-reads.js';
import { readStateFast } from './state/read-state-fast.js';
import { requireStateOfTrees } from './state/state-gone.js';
import type { PluginRecord, State } from './state/state-schema.js';
import type { StorePaths } from './store-paths.js';
import { hasCurrentConsent } from './state/current-consent.js';
import { checkInstalledTrees, type TreeCheck } from './tree-check.js';
import type { PolicyInForce } from '../policy/policy.js';
import { policyStops } from '../policy/policy-at-run.js';
import { sandboxStops } from '../policy/sandbox-require.js';
import { readPolicyFile } from './policy-file.js';
import { registryLocationIn } from './builtin-registries.js';

/** The plugin part of a snapshot's sources (engine.md S1, S3, S6). */
export interface PluginSources {
  sources: SourceDocument[];
  diagnostics: Diagnostic[];
  /**
   * docs/reference/rules/engine.md#fail-closed: the enabled, consented plugins left out because
   * they cannot run as consented, and a state that cannot be read (then the only entry).
   */
  failClosed: FailClosed[];
}

/** One plugin that can run now, with the record it was loaded from. */
export interface RunnablePlugin {
  record: PluginRecord;
  /** Its documents, bound to its tree and data directory, opted-out hooks null (`enable --hook`, docs/reference/commands.md). */
  sources: SourceDocument[];
  /** The root of the project whose plugin it is; null for a user-wide one. */
  project: string | null;
}

/** The answer of runnablePlugins: each plugin that can run, in order, and why others cannot. */
export interface RunnablePlugins extends PluginSources {
  plugins: RunnablePlugin[];
  /** With `presume`: the plugins bound from the documents cache whose trees were not checked. */
  presumed: string[];
  /**
   * What the state records besides (nothing when it cannot be read): linked plugins; the roots of
   * the projects it records plugins for; and, when there are some, the key `options.projectKey`
   * gave (null: none could be found).
   */
  records: { linked: boolean; projectRoots: readonly string[]; projectKey: string | null };
}

export interface RunnablePluginsOptions extends ScanOptions {
  /**
   * The canonical root of the project the invocation is in, as `install --project` keys it
   * (docs/guides/projects.md); asked only when the state records some project. Absent or null: user
   * plugins only.
   */
  projectKey?: () => Promise<string | null>;
  /** Only these plugins (ids) are loaded and checked; the documents cache keeps the others. */
  only?: ReadonlySet<string>;
  /**
   * engine.md X10: a plugin whose cached documents were read from the tree its record names now
   * (path, name and fingerprint) is bound from them without checking its tree, and listed in
   * `presumed`; the caller checks the presumed plugins about to run (`only`) before they run.
   */
  presume?: boolean;
  /**
   * The administrator's policy in force (docs/reference/rules/policy.md); absent: read now from
   * this process's environment (store/policy-file.ts).
   */
  policy?: PolicyInForce;
}

/**
 * registry.md D13: a project's record this user disabled (`disable --project`): it keeps its
 * consent, or is marked keptOff once a wider version dropped it. A record never consented is not.
 */
function keptOffHere(record: PluginRecord): boolean {
  return !record.enabled && (record.consent !== null || record.keptOff === true);
}

/** plugins.md Q4: a plugin may run when it is enabled and its consent is current. */
export function mayRun(record: PluginRecord): boolean {
  return record.enabled && hasCurrentConsent(record);
}

/**
 * Which plugins can run now, in one call: every installed plugin that may run (plugins.md Q4:
 * enabled, and its consent record holds its current surfaceHash) whose tree is intact, with its
 * documents: the user's sorted by id, then those of the project (`options.projectKey`) sorted by id
 * (S3, docs/guides/projects.md; a project's version of a plugin replaces the user's there), each
 * bound to its installed tree and data directory (section 3 variables). A plugin whose tree no
 * longer matches its fingerprint is left out with `plugin_tampered` (Q6); one that cannot be read
 * is left out with a diagnostic naming it (S6); an unreadable state, or a missing one while trees
 * are installed (state-gone.ts), gives no plugins and `plugin_state_unreadable` (R4). Each plugin left out so, and an unreadable state, is also a
 * `failClosed` entry (docs/reference/rules/engine.md#fail-closed): the hosts deny the blocking
 * events it would have run on. Never throws.
 *
 * Every call reads the state and checks every tree's fingerprint, through two caches of the cache
 * directory: a file is hashed again only when its lstat changed (store/fingerprint-cache.ts), and
 * a plugin's documents are read again only when its tree's fingerprint or directories changed
 * (store/plugin-documents-cache.ts). Documents are cached only when the tree provably held still
 * while they were read (store/read-unchanged.ts), under the fingerprint of what they were read
 * from, and used only for a tree that has that fingerprint now: neither cache lets a changed tree
 * pass. Whoever can write the cache directory can write the state too (both are the user's), so
 * the caches open no new way in. `options.now` is the clock the racy window is judged by.
 */
export async function runnablePlugins(
  paths: StorePaths,
  options: RunnablePluginsOptions = {},
): Promise<RunnablePlugins> {
  let state: State;
  try {
    state = await readStateFast(paths);
    requireStateOfTrees(paths, state);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    const message = `the plugin state cannot be read, so no plugin hooks are loaded (user and project hooks still are): ${why}`;
    return {
      plugins: [],
      sources: [],
      diagnostics: [
        diagnostic('plugin_state_unreadable', 'warning', message, { origin: 'plugin' }),
      ],
      failClosed: [failingState(error)],
      presumed: [],
      records: { linked: false, projectRoots: [], projectKey: null },
    };
  }
  const { key: projectKey, records: project } = await projectRecordsOf(state, options.projectKey);
  const byId = (a: PluginRecord, b: PluginRecord): number => compareCodeUnits(a.id, b.id);
  // docs/guides/projects.md: a plugin the project pins runs at the project's version there, not
  // twice; one this user disabled there (registry.md D13) runs there in no version.
  const pinned = new Set(project.filter((p) => mayRun(p) || keptOffHere(p)).map((p) => p.id));
  const user = Object.values(state.plugins).filter((p) => mayRun(p) && !pinned.has(p.id));
  const fromProject = project.filter(mayRun);
  const only = options.only;
  const mayRunNow = [...user.sort(byId), ...fromProject.sort(byId)].filter(
    (record) => only === undefined || only.has(record.id),
  );
  // A13, A11: what the policy stops is left out before its tree is even checked.
  const policy = options.policy ?? readPolicyFile(process.env);
  const stops = policyStops(policy, mayRunNow, (name) => registryLocationIn(state, name));
  const runnable = mayRunNow.filter((record) => !stops.stopped.has(record.id));
  const scoped = new Set(fromProject);
  const cached = readDocumentsCache(paths);
  const presumed = new Map<string, PluginRead>();
  if (options.presume === true)
    for (const record of runnable) {
      const entry = cached.get(record.id);
      if (
        record.linked !== true &&
        entry !== undefined &&
        entry.path === record.path &&
        entry.name === record.name &&
        entry.fingerprint === record.fingerprint
      )
        presumed.set(record.id, entry.documents);
    }
  // plugins.md D15: a linked directory is read in place, without the tamper check (Q6).
  const checked = runnable.filter((record) => record.linked !== true && !presumed.has(record.id));
  const trees = checked.map((record) => ({ root: record.path, fingerprint: record.fingerprint }));
  const checks = await checkInstalledTrees(paths, trees, options);
  const scans = new Map<string, TreeScan>();
  for (const [root, check] of checks) if (check.status === 'match') scans.set(root, check.scan);
  const partial = only !== undefined || presumed.size > 0;
  const documents = await documentsOf(paths, checked, scans, cached, partial, options);
  await readCreated(paths, checked, checks, documents, options);
  const linked = runnable.filter((record) => record.linked === true);
  const reads = await Promise.all(linked.map(readLinked));
  linked.forEach((record, i) => documents.set(record.id, reads[i]!));
  const dataDir = pluginDataDirs(paths);
  // Z3: what a confined handler may not read: the store's directories (state, settings, trust,
  // every plugin's tree and data, caches), its own tree and data excepted.
  const hide = [paths.config, paths.data, paths.cache];
  const loaded = runnable.map((record) => {
    const presumedRead = presumed.get(record.id);
    const check: TreeCheck | undefined =
      presumedRead === undefined
        ? checks.get(record.path)
        : { status: 'match', scan: { fingerprint: record.fingerprint, layout: '' } };
    const read = presumedRead ?? documents.get(record.id);
    return bindPlugin(record, dataDir(record.id), check, read, {
      project: scoped.has(record) ? projectKey : null,
      hide,
    });
  });
  // A18: with sandbox.require, a plugin that would run unconfined is left out too.
  const unconfined = sandboxStops(
    policy,
    runnable.flatMap((record, i) =>
      loaded[i]!.runs ? [{ ...record, confined: loaded[i]!.confined === true }] : [],
    ),
  );
  for (const [i, record] of runnable.entries())
    if (unconfined.stopped.has(record.id)) loaded[i] = { ...loaded[i]!, runs: false, sources: [] };
  return {
    plugins: runnable.flatMap((record, i) =>
      loaded[i]!.runs
        ? [{ record, sources: loaded[i]!.sources, project: scoped.has(record) ? projectKey : null }]
        : [],
    ),
    sources: loaded.flatMap((l) => l.sources),
    diagnostics: loaded.flatMap((l) => l.diagnostics),
    failClosed: [
      ...stops.failClosed,
      ...unconfined.failClosed,
      ...loaded.flatMap((l) => (l.failing === null ? [] : [l.failing])),
    ],
    presumed: [...presumed.keys()],
    records: {
      linked: Object.values(state.plugins).some((p) => p.linked === true),
      projectRoots: Object.keys(state.projects ?? {}),
      projectKey,
    },
  };
}

/**
 * docs/guides/projects.md: the records of the project `projectKey` names, enabled for that project
 * only; none outside one. The key is asked for only when the state records some project; it is
 * returned with the records (null: not asked, or none found).
 */
async function projectRecordsOf(
  state: State,
  projectKey: (() => Promise<string | null>) | undefined,
): Promise<{ key: string | null; records: PluginRecord[] }> {
  const projects = state.projects;
  if (projectKey === undefined || projects === undefined) return { key: null, records: [] };
  const key = await projectKey().catch(() => null);
  const project =
    key === null ? undefined : Object.hasOwn(projects, key) ? projects[key] : undefined;
  return { key, records: project === undefined ? [] : Object.values(project.plugins) };
}
