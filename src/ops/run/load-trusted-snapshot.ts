import type { StorePaths } from '../../store/store-paths.js';
import {
  loadSnapshot,
  type GivenPlugins,
  type LoadedSnapshot,
  type LoadSnapshotOptions,
} from './load-snapshot.js';
import { resolveTrust, type ResolvedTrust, type ResolveTrustOptions } from './resolve-trust.js';

export interface LoadTrustedSnapshotOptions extends ResolveTrustOptions {
  /** Documents of enabled plugins and the diagnostics of loading them: trust never gates them (T7). */
  plugins?: GivenPlugins;
  /** The store whose enabled plugins contribute, when `plugins` is not given (see loadSnapshot). */
  store?: StorePaths;
  /** See loadSnapshot's `presume` (engine.md X10). */
  presume?: boolean;
  /** See loadSnapshot's `snapshotIdOf` (engine.md X10). */
  snapshotIdOf?: LoadSnapshotOptions['snapshotIdOf'];
}

export interface TrustedSnapshot extends LoadedSnapshot {
  /** The decision the snapshot was built under; a session passes `trust.onceSha256` back on reload (R4). */
  trust: ResolvedTrust;
}

/**
 * docs/reference/rules/engine.md#workspace-trust and R1: resolves workspace trust, then loads the
 * configuration from the canonical project root (the root trust was decided for), with the project
 * file only when trusted and only if its bytes are still the ones hashed when trust was checked
 * (T6). Plugins load whatever the trust decision (T7). Errors: those of resolveTrust (E_CANCELLED,
 * E_USAGE).
 */
export async function loadTrustedSnapshot(
  options: LoadTrustedSnapshotOptions,
): Promise<TrustedSnapshot> {
  const trust = await resolveTrust(options);
  const loaded = await loadSnapshot({
    cwd: trust.root,
    home: options.home,
    trustProject: trust.trusted,
    expectedProjectSha256: trust.sha256,
    trustDiagnostics: trust.diagnostics,
    ...(options.plugins === undefined ? {} : { plugins: options.plugins }),
    ...(options.store === undefined ? {} : { store: options.store }),
    ...(options.presume === true ? { presume: true } : {}),
    ...(options.snapshotIdOf === undefined ? {} : { snapshotIdOf: options.snapshotIdOf }),
  });
  return { ...loaded, trust };
}
