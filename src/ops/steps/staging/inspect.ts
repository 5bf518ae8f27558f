import { HookpmError, type ErrorCode } from '../../../errors.js';
import type { Diagnostic } from '../../../hooks/diagnostic.js';
import { handlerFormWarnings } from '../../../plugin/handler-form.js';
import type { LoadedPlugin } from '../../../plugin/loaded-plugin.js';
import { buildSurface, type Surface } from '../../../plugin/surface.js';
import { readPluginDir } from '../../../store/read-plugin.js';
import { shellWord } from '../../../text/shell-word.js';

/** A plugin directory read and judged: what review shows and what install records. */
export interface InspectedPlugin {
  /** `<name>@<registry>` (P3; D1b: `local` for a directory). */
  id: string;
  /** The manifest version, else "0.0.0" (a local plugin need not have one: P1, P2). */
  version: string;
  plugin: LoadedPlugin;
  surface: Surface;
}

export interface InspectOptions {
  /** The name to use without a manifest name (P1): the source directory's name. */
  fallbackName: string;
  registry: string;
}

/** The version recorded for a plugin whose manifest has none. */
export const NO_VERSION = '0.0.0';

/**
 * Reads `dir` (P1-P4, H1-H5) and computes its surface (Q1, Q2), adding the warnings about
 * handlers that agents would run differently (plugin/handler-form.ts). Never throws for plugin
 * content.
 */
export async function inspectPluginDir(
  dir: string,
  opts: InspectOptions,
): Promise<InspectedPlugin> {
  const plugin = await readPluginDir(dir, { fallbackName: opts.fallbackName });
  const id = `${plugin.name}@${opts.registry}`;
  plugin.diagnostics = [...plugin.diagnostics, ...handlerFormWarnings(plugin.documents)].map(
    (d) => ({ ...d, origin: 'plugin' as const, plugin: id }),
  );
  return { id, version: plugin.version ?? NO_VERSION, plugin, surface: buildSurface(plugin) };
}

/**
 * P4: refuses a plugin with an error: E_NAME_INVALID for its name (P3), E_MANIFEST_INVALID for its
 * manifest, E_HOOKS_INVALID for a hooks document; the message names the file and quotes the first
 * error, `details.diagnostics` holds them all.
 */
export function assertInstallable(inspected: InspectedPlugin, where: string): void {
  const errors = inspected.plugin.diagnostics.filter((d) => d.severity === 'error');
  const first = errors[0];
  if (first === undefined) return;
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more error(s))` : '';
  const file = first.path ?? inspected.plugin.manifestFile ?? where;
  const fileName = file.split(':')[0] ?? file;
  const what = first.message.includes(fileName) ? first.message : `${file}: ${first.message}`;
  throw new HookpmError(codeOf(first), `cannot install ${where}: ${what}${more}`, {
    file,
    plugin: inspected.id,
    diagnostics: errors,
    hint: `Run \`hookpm validate ${shellWord(where)}\` to see every problem, fix them, and install again.`,
  });
}

function codeOf(d: Diagnostic): ErrorCode {
  if (d.code === 'invalid_plugin_name') return 'E_NAME_INVALID';
  if (d.code === 'invalid_manifest') return 'E_MANIFEST_INVALID';
  return 'E_HOOKS_INVALID';
}
