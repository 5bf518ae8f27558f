import {
  runnablePlugins,
  type PluginSources,
  type RunnablePlugins,
  type RunnablePluginsOptions,
} from '../../../store/runnable-plugins.js';
import type { StorePaths } from '../../../store/store-paths.js';
import { canonicalProjectRoot } from '../../../workspace/canonical-root.js';

export type { PluginSources };

/**
 * The plugin part of a host's snapshot (engine.md S1, S3, S6): the documents of the plugins that
 * can run now (store/runnable-plugins.ts), the user's, then those of the project `cwd` is in
 * (docs/guides/projects.md; its canonical root, looked up only when the state records a project),
 * and what fails closed (docs/reference/rules/engine.md#fail-closed), with the whole answer of
 * runnablePlugins as `runnable` (the plugins with their records). Never throws.
 */
export async function loadPluginSources(
  paths: StorePaths,
  options: Omit<RunnablePluginsOptions, 'projectKey'> = {},
  cwd?: string,
): Promise<PluginSources & { presumed: string[]; runnable: RunnablePlugins }> {
  const runnable = await runnablePlugins(paths, {
    ...options,
    ...(cwd === undefined ? {} : { projectKey: () => canonicalProjectRoot(cwd) }),
  });
  const { sources, diagnostics, failClosed, presumed } = runnable;
  return { sources, diagnostics, failClosed, presumed, runnable };
}
