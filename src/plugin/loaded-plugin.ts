import type { Diagnostic } from '../hooks/diagnostic.js';
import type { DeclaredHandler, HooksConfig } from '../hooks/types.js';
import type { Manifest } from './manifest.js';

/** One hooks document of a plugin, in H4 order. */
export interface PluginDocument {
  /**
   * Where it came from, as shown to the user (docs/reference/rules/plugins.md#consent-surface):
   * `hooks/hooks.json` (or `hooks` for a file named so), `./extra.json` (a manifest path,
   * normalized, with `/hooks.json` appended for a directory), or `plugin.json#hooks` (inline).
   */
  source: string;
  /** null when the document is not loaded at all (invalid JSON, not of the hooks shape). */
  config: HooksConfig | null;
  declared: DeclaredHandler[];
}

/** A plugin directory as read from disk: what review, validate, install and the snapshot use. */
export interface LoadedPlugin {
  /** The directory, as given. */
  root: string;
  /** The manifest file used, relative to the root (`.claude-plugin/plugin.json`), or null. */
  manifestFile: string | null;
  /**
   * The manifest whose `hooks` field is read: `manifestFile`, or `.claude-plugin/plugin.json` when
   * a root `plugin.json` is beside it (docs/design/decisions.md#plugins-and-marketplaces); null
   * without a manifest. Optional for plugins built in memory, where it is `manifestFile`.
   */
  hooksManifestFile?: string | null;
  /** null without a manifest, or when it is unusable (not an object, no valid name). */
  manifest: Manifest | null;
  /** The manifest's name, else the fallback name, else the directory's name; maybe invalid (P3). */
  name: string;
  version: string | null;
  description: string | null;
  documents: PluginDocument[];
  /**
   * Errors and warnings of the manifest and every document, each with `path` naming the file
   * (`<file>:<json path>`), `origin: 'plugin'` and `plugin` (the id when given, else the name).
   * An error means the plugin must not be installed (P4).
   */
  diagnostics: Diagnostic[];
}

/** P4: a plugin with an error diagnostic is refused by install. */
export function hasErrors(plugin: Pick<LoadedPlugin, 'diagnostics'>): boolean {
  return plugin.diagnostics.some((d) => d.severity === 'error');
}
