import { basename, resolve } from 'node:path';
import { LOCAL_REGISTRY } from '../../registry/registry-name.js';
import { inspectPluginDir } from '../steps/staging/inspect.js';
import type { Diagnostic } from '../../hooks/diagnostic.js';
import type { KindFindings } from './findings.js';
import { agentCompatWarnings } from './agent-compat.js';

/** A diagnostic inside a hooks document's `hooks` (`<file>:hooks.<Event>...`). */
const IN_HOOKS = /:hooks[.[]/;

/**
 * `hookpm validate <plugin dir>` (kind "plugin"): the manifest (P1-P4, unknown fields as
 * warnings), every hooks document (H1-H5) and the surface's inert entries (Q1), with the engine
 * events the plugin would hook. An error here is what makes install refuse it. A plugin that
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
