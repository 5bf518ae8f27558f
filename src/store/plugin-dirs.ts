import { join, sep } from 'node:path';
import { sanitizePluginId } from '../plugin/data-id.js';
import { pluginDataRoot, pluginsDir } from './paths.js';
import type { StorePaths } from './store-paths.js';

/*
 * The directories named by a plugin's id (plugins.md V3, registry.md D4). Apart from paths.ts so
 * that a command that names no plugin directory (`hookpm list`) does not load node:crypto.
 */

/** D4: all installed versions of one plugin, `<plugins>/<sanitized id>/`. */
export function pluginVersionsDir(paths: StorePaths, id: string): string {
  return join(pluginsDir(paths), sanitizePluginId(id));
}

/** V3: one plugin's persistent data directory. */
export function pluginDataDir(paths: StorePaths, id: string): string {
  return join(pluginDataRoot(paths), sanitizePluginId(id));
}

/** pluginDataDir for many plugins of one store, its root joined once (a sanitized id is one name). */
export function pluginDataDirs(paths: StorePaths): (id: string) => string {
  const root = pluginDataRoot(paths);
  return (id) => `${root}${sep}${sanitizePluginId(id)}`;
}
