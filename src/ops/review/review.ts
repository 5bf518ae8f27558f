import { basename, resolve } from 'node:path';
import { LOCAL_REGISTRY } from '../../registry/registry-name.js';
import { fingerprintTree } from '../../store/fingerprint.js';
import type { StorePaths } from '../../store/store-paths.js';
import { readState } from '../../store/state/state.js';
import type { PluginRecord } from '../../store/state/state-schema.js';
import { inspectPluginDir } from '../install/inspect.js';
import { isPathSpec } from '../install/source.js';
import { findInstalled, readConsentBaseline } from '../plugins/installed.js';
import { buildReview, type ReviewDiagnostic, type ReviewReport } from './report.js';

/**
 * `hookpm review <name|dir>` (plugins.md Q3, cli.md section 3): the consent surface of an installed
 * plugin (its pending update's, if one waits) or of a plugin directory, with the diff against the
 * surface consented to for the same id. Never throws for what a plugin contains: its problems are
 * the report's diagnostics (ok: false when install would refuse it, P4).
 */
export async function reviewPlugin(
  paths: StorePaths,
  opts: { target: string; cwd: string },
): Promise<ReviewReport> {
  const state = await readState(paths);
  if (isPathSpec(opts.target)) {
    const dir = resolve(opts.cwd, opts.target);
    const inspected = await inspectPluginDir(dir, {
      fallbackName: basename(dir),
      registry: LOCAL_REGISTRY,
    });
    const existing = state.plugins[inspected.id];
    return buildReview({
      id: inspected.id,
      version: inspected.version,
      plugin: inspected.plugin,
      surface: inspected.surface,
      source: dir,
      integrity: null,
      ...(await readConsentBaseline(existing)),
    });
  }
  const record = findInstalled(state, opts.target);
  const target = record.pending ?? record;
  const [report, found] = await Promise.all([
    reviewInstalledTree(record, target),
    fingerprintTree(target.path).catch(() => null),
  ]);
  if (found !== target.fingerprint) report.diagnostics.unshift(tampered(record.id, target));
  return report;
}

/** Q6: the installed files no longer match the fingerprint recorded at install. */
/** The review of one installed tree of `record` (its active one or its pending update). */
export async function reviewInstalledTree(
  record: PluginRecord,
  target: Pick<PluginRecord, 'path' | 'version' | 'source' | 'integrity'>,
): Promise<ReviewReport> {
  const inspected = await inspectPluginDir(target.path, {
    fallbackName: record.name,
    registry: record.registry,
  });
  return buildReview({
    id: record.id,
    version: target.version,
    plugin: inspected.plugin,
    surface: inspected.surface,
    source: target.source,
    integrity: target.integrity,
    ...(await readConsentBaseline(record)),
  });
}

function tampered(id: string, target: { path: string; source: string }): ReviewDiagnostic {
  return {
    severity: 'error',
    code: 'plugin_tampered',
    message: `the installed files of ${id} at ${target.path} changed after install; its hooks are left out of snapshots until \`hookpm install --force ${target.source}\` restores them`,
    path: null,
  };
}
