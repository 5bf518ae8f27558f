import { basename, resolve } from 'node:path';
import { isVersionKey } from '../../registry/indexes/index-schema.js';
import { LOCAL_REGISTRY } from '../../registry/registry-name.js';
import semver from '../../registry/versions/semver.js';
import { inspectPluginDir } from '../steps/staging/inspect.js';
import { diagnostic, type Diagnostic } from '../../hooks/diagnostic.js';
import type { LoadedPlugin } from '../../plugin/loaded-plugin.js';
import type { KindFindings } from './findings.js';
import { agentCompatWarnings } from './agent-compat.js';
import { treeRefusals } from './plugin-tree.js';

/** A diagnostic inside a hooks document's `hooks` (`<file>:hooks.<Event>...`). */
const IN_HOOKS = /:hooks[.[]/;

/**
 * `hookpm validate <plugin dir>` (kind "plugin"): the manifest (P1-P4, unknown fields as warnings),
 * every hooks document (H1-H5) and the surface's inert entries (Q1), with the engine events the
 * plugin would hook, and its tree as install copies it (plugin-tree.ts). An error here is what
 * makes install refuse it. A version semver accepts but does not write so (`v1.0.0`,
 * `1.0.0+build`) installs and is a warning: `pack` refuses it (registry.md I1). A plugin that
 * declares hooks of which none is valid hooks nothing: its hooks' warnings are errors then (it
 * would install and never run), and `validate` fails.
 */
export async function validatePluginDir(dir: string): Promise<KindFindings> {
  const inspected = await inspectPluginDir(dir, {
    fallbackName: basename(resolve(dir)),
    registry: LOCAL_REGISTRY,
  });
  const events = [...inspected.surface.events];
  const diagnostics = [
    ...inspected.plugin.diagnostics,
    ...(await treeRefusals(dir)),
    ...unpublishableVersion(inspected.plugin),
    ...agentCompatWarnings(inspected.plugin.documents.flatMap((d) => d.declared)),
  ];
  const inHooks = (d: Diagnostic): boolean => IN_HOOKS.test(d.path ?? '');
  if (events.length > 0 || !diagnostics.some(inHooks)) return { events, diagnostics };
  return {
    events,
    diagnostics: diagnostics.map((d) =>
      inHooks(d) && d.severity === 'warning' ? { ...d, severity: 'error' as const } : d,
    ),
  };
}

/** I1: the manifest's version as an index must name it, or a warning saying how to write it. */
function unpublishableVersion(plugin: LoadedPlugin): Diagnostic[] {
  const { version, manifestFile } = plugin;
  if (version === null || manifestFile === null || isVersionKey(version)) return [];
  const canonical = semver.valid(version) ?? '1.0.0';
  const message = `"version" ${JSON.stringify(version)} is not written as a registry version: \`hookpm pack\` refuses it; write ${JSON.stringify(canonical)}`;
  return [
    diagnostic('unpublishable_version', 'warning', message, { path: `${manifestFile}:version` }),
  ];
}
