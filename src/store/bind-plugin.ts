import type { FailClosed } from '../hooks/fail-closed-entry.js';
import { diagnostic, type Diagnostic } from '../hooks/diagnostic.js';
import type { SourceDocument } from '../hooks/types.js';
import { withoutOptedOutHooks } from '../plugin/hook-opt-outs.js';
import { effectiveConfinement } from '../plugin/capabilities.js';
import { failingPlugin } from './fail-closed-plugin.js';
import type { PluginRead } from './plugin-reads.js';
import type { PluginRecord } from './state/state-schema.js';
import { tamperedDiagnostic } from './tampered.js';
import type { TreeCheck } from './tree-check.js';

/**
 * One runnable plugin bound to its tree and data directory (section 3 variables), or left out with
 * why: a tree that changed or went (Q6), a created file that changes what runs, a linked directory
 * whose hooks changed since consent (D15, Q4), documents that cannot be read (S6). `hide`: what a
 * confined handler may not read (Z3). `project`: the root of the project whose plugin it is (null:
 * a user-wide one), which the fixes it is left out with name (restoreAdvice).
 */
export function bindPlugin(
  record: PluginRecord,
  data: string,
  check: TreeCheck | undefined,
  read: PluginRead | undefined,
  { project, hide }: { project: string | null; hide: readonly string[] },
): Bound {
  const where = { origin: 'plugin' as const, plugin: record.id };
  const failing = (why: string): FailClosed =>
    failingPlugin({ ...record, project }, record.events, why);
  const tampered = { ...record, project };
  if (record.linked !== true && check?.status !== 'match' && check?.status !== 'created') {
    const missing = check?.status !== 'changed';
    return {
      runs: false,
      sources: [],
      diagnostics: [tamperedDiagnostic(tampered, missing)],
      failing: failing(
        missing
          ? 'its installed tree is missing or unreadable'
          : 'its installed files were changed after install',
      ),
    };
  }
  if (read === undefined) throw new Error(`Assertion failed: no documents for ${record.id}`);
  if ('tampered' in read)
    return {
      runs: false,
      sources: [],
      diagnostics: [tamperedDiagnostic(tampered, false, read.tampered)],
      failing: failing(read.tampered),
    };
  if ('unconsented' in read) {
    const message = `linked plugin ${record.id} is left out: the hooks of ${record.path} changed since you consented (surface ${read.unconsented}); run \`hookpm enable ${record.id}\` to review them`;
    return {
      runs: false,
      sources: [],
      diagnostics: [diagnostic('linked_surface_changed', 'error', message, where)],
      failing: failing('its linked directory hooks changed since consent'),
    };
  }
  if ('error' in read) {
    const message = `plugin ${record.id} ${record.version} is left out: it cannot be read: ${read.error}`;
    return {
      runs: false,
      sources: [],
      diagnostics: [diagnostic('plugin_hooks_failed', 'error', message, where)],
      failing: failing(`it cannot be read: ${read.error}`),
    };
  }
  const confine = effectiveConfinement(read.capabilities ?? null, record.consent?.confine ?? null);
  const plugin = {
    id: record.id,
    root: record.path,
    data,
    ...(project !== null ? { scope: 'project' as const } : {}),
    ...(confine === null ? {} : { confine: { ...confine, hide } }),
  };
  // Per-hook opt-outs (`enable --hook`): handlers turned off are null in place (hook-opt-outs.ts).
  const documents = withoutOptedOutHooks(read.documents, record.disabledHooks);
  const sources = documents.map(({ source, config }): SourceDocument => ({
    origin: 'plugin',
    file: source,
    config,
    plugin,
  }));
  return {
    runs: true,
    sources,
    diagnostics: read.diagnostics,
    failing: null,
    confined: confine !== null,
  };
}

/** One plugin bound: its sources when it runs, else why not, and what fails closed for it. */
export interface Bound {
  runs: boolean;
  sources: SourceDocument[];
  diagnostics: Diagnostic[];
  failing: FailClosed | null;
  /** Z4: whether its handlers run confined (declared capabilities or `--confine`). */
  confined?: boolean;
}
