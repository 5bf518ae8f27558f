import { compareCodeUnits } from '../../json/compare.js';
import type { StorePaths } from '../../store/store-paths.js';
import { readStateFast } from '../../store/state/read-state-fast.js';
import type { PluginRecord } from '../../store/state/state-schema.js';
import { checkInstalledTrees } from '../../store/tree-check.js';
import { readTreeVerdicts, recordFullCheck } from '../../store/tree-verdicts.js';
import { canonicalProjectRoot } from '../../workspace/canonical-root.js';
import { listedPlugin } from './listed-plugin.js';
import type { ListedPlugin } from './listed-plugin.js';

export type { ListedPlugin } from './listed-plugin.js';

/** The plugins installed for the project `cwd` is in (docs/guides/projects.md), as `list` shows them beside. */
export interface ListedProject {
  root: string;
  plugins: ListedPlugin[];
}

/**
 * `hookpm list`: the installed plugins, sorted by id. Reads the state without taking the lock.
 * With a `cwd` inside a project that has plugins installed for it, `project` lists those too.
 * S32: each tree's tamper status is the one its last check recorded (tree-verdicts.ts), so `list`
 * reads no tree; with `verify`, every listed tree is checked now against its fingerprint (the
 * cached tree scan the snapshot loader uses) and that check is recorded.
 */
export async function listPlugins(
  paths: StorePaths,
  cwd?: string,
  options: { verify?: boolean } = {},
): Promise<{ plugins: ListedPlugin[]; project: ListedProject | null }> {
  const state = await readStateFast(paths);
  const user = Object.values(state.plugins);
  let project: { root: string; records: PluginRecord[] } | null = null;
  if (cwd !== undefined && state.projects !== undefined) {
    const root = await canonicalProjectRoot(cwd).catch(() => null);
    const records =
      root !== null && Object.hasOwn(state.projects, root)
        ? Object.values(state.projects[root]!.plugins)
        : [];
    if (root !== null && records.length > 0) project = { root, records };
  }
  if (options.verify === true) {
    const at = Date.now();
    // plugins.md D15: a linked directory is read in place and held to no fingerprint.
    const installed = (records: PluginRecord[]) => records.filter((r) => r.linked !== true);
    const tampered = await tamperedPaths(paths, installed([...user, ...(project?.records ?? [])]));
    const roots = new Set(installed(user).map((r) => r.path));
    recordFullCheck(paths, roots, new Set([...tampered].filter((root) => roots.has(root))), at);
  }
  const verdicts = readTreeVerdicts(paths);
  const listed = (records: PluginRecord[], ofUser: boolean): ListedPlugin[] =>
    records
      .sort((a, b) => compareCodeUnits(a.id, b.id))
      .map((p) => listedPlugin(p, verdicts, ofUser));
  return {
    plugins: listed(user, true),
    project:
      project === null ? null : { root: project.root, plugins: listed(project.records, false) },
  };
}

/**
 * The trees of `records` the snapshot loader would leave out (Q6): missing, changed, or holding a
 * created file that changes what runs (docs/design/decisions.md#plugins-and-marketplaces).
 */
async function tamperedPaths(paths: StorePaths, records: PluginRecord[]): Promise<Set<string>> {
  const checks = await checkInstalledTrees(
    paths,
    records.map((r) => ({ root: r.path, fingerprint: r.fingerprint })),
  );
  const out = new Set<string>();
  for (const record of records) {
    const check = checks.get(record.path);
    if (check?.status === 'match') continue;
    if (check?.status === 'created') {
      // Rare, and it reads the plugin (zod): loaded only then, so `list` stays light.
      const { treeStatusOf } = await import('../../store/tree-status.js');
      const status = await treeStatusOf(paths, record);
      if (status.status === 'match' || status.status === 'created') continue;
    }
    out.add(record.path);
  }
  return out;
}
