import { createdFileProblem } from '../plugin/created-files.js';
import type { LoadedPlugin } from '../plugin/loaded-plugin.js';
import { readPluginDir } from './read-plugin.js';
import type { StorePaths } from './store-paths.js';
import { checkInstalledTrees } from './tree-check.js';
import { recordTreeVerdicts } from './tree-verdicts.js';

/** An installed tree against its record (plugins.md Q6, with the files a plugin creates in its folder: docs/design/decisions.md#plugins-and-marketplaces). */
export type TreeStatus =
  | { status: 'match' }
  /** Installed files intact; `created` holds what the plugin wrote into its folder since. */
  | { status: 'created'; created: string[] }
  /**
   * `problem`: the created file that would change what runs; `linked`: the tree or the directory
   * holding it is a symbolic link (tree-check.ts); else an installed file changed.
   */
  | { status: 'changed'; problem?: string; linked?: true }
  | { status: 'missing' };

/**
 * The status of one installed tree, as the snapshot loader judges it: files created in the
 * plugin's folder after install are allowed unless one would change what runs
 * (plugin/created-files.ts), read against the plugin's documents as they are now. For enable and
 * doctor; never rejects.
 */
export async function treeStatusOf(
  paths: StorePaths,
  target: { path: string; fingerprint: string; name: string },
): Promise<TreeStatus> {
  const checks = await checkInstalledTrees(paths, [
    { root: target.path, fingerprint: target.fingerprint },
  ]);
  const check = checks.get(target.path) ?? { status: 'missing' as const };
  if (check.status !== 'created') return check.status === 'match' ? { status: 'match' } : check;
  const plugin = await readPluginDir(target.path, { fallbackName: target.name }).catch(() => null);
  if (plugin === null) return { status: 'missing' };
  const problem = createdProblemIn(plugin, check.created);
  recordTreeVerdicts(paths, new Map([[target.path, problem !== null]]), Date.now());
  return problem === null ? check : { status: 'changed', problem };
}

/**
 * The created file among `created` that would change what `plugin` runs (a document hookpm reads
 * or a file a handler names: plugin/created-files.ts), or null.
 */
export function createdProblemIn(plugin: LoadedPlugin, created: readonly string[]): string | null {
  return createdFileProblem({
    created,
    read: [plugin.manifestFile, plugin.hooksManifestFile, ...plugin.documents.map((d) => d.source)],
    handlerText: handlerTextOf(plugin),
  });
}

/** Every command, argv and args string the plugin's handlers declare. */
function handlerTextOf(plugin: Pick<LoadedPlugin, 'documents'>): string[] {
  const text: string[] = [];
  for (const document of plugin.documents)
    for (const h of document.declared)
      for (const value of [h.command, h.argv, h.args].flat())
        if (typeof value === 'string') text.push(value);
  return text;
}
