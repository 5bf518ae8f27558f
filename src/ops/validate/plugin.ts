import { basename, resolve } from 'node:path';
import { LOCAL_REGISTRY } from '../../registry/registry-name.js';
import { inspectPluginDir } from '../steps/staging/inspect.js';
import type { KindFindings } from './findings.js';

/**
 * `hookpm validate <plugin dir>` (kind "plugin"): the manifest (P1-P4, unknown fields as
 * warnings), every hooks document (H1-H5) and the surface's inert entries (Q1), with the engine
 * events the plugin would hook. An error here is what makes install refuse it.
 */
export async function validatePluginDir(dir: string): Promise<KindFindings> {
  const inspected = await inspectPluginDir(dir, {
    fallbackName: basename(resolve(dir)),
    registry: LOCAL_REGISTRY,
  });
  return { events: [...inspected.surface.events], diagnostics: inspected.plugin.diagnostics };
}
