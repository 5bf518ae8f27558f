import { diagnostic, type Diagnostic } from '../hooks/diagnostic.js';
import { clip } from '../text/clip.js';
import { restoreAdvice } from './reinstall-command.js';

/** What a tamper check needs to say of a plugin it leaves out. */
export interface TamperedPlugin {
  id: string;
  version: string;
  /** Its installed tree. */
  path: string;
  /** What it was installed from, for `hookpm install --force`. */
  source: string;
  /** A project's plugin: the project's root (restored by `hookpm ci` there, restoreAdvice). */
  project?: string | null;
}

/**
 * plugins.md Q6: the `plugin_tampered` diagnostic of a plugin left out because its tree no longer
 * has its recorded fingerprint (`missing`: the tree is gone or cannot be read), with the command
 * that restores it; `created` says which file created in its folder since would change what runs
 * (docs/design/decisions.md#plugins-and-marketplaces: other created files are not tampering). One
 * wording for the snapshot loader and for session pins.
 */
export function tamperedDiagnostic(
  plugin: TamperedPlugin,
  missing: boolean,
  created?: string,
): Diagnostic {
  const what = missing
    ? 'its installed tree is missing or unreadable'
    : created !== undefined
      ? `${created}, which would change what runs without consent`
      : 'its installed files were changed after install';
  const message = `plugin ${plugin.id} ${plugin.version} is left out: ${what} (${clip(plugin.path)}); ${restoreAdvice(plugin, plugin.project)}`;
  return diagnostic('plugin_tampered', 'error', message, { origin: 'plugin', plugin: plugin.id });
}
