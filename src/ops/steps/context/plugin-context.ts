import type { DownloadTimings } from '../../../registry/cache-tarball.js';
import type { StorePaths } from '../../../store/store-paths.js';
import type { RegistryRecord } from '../../../store/state/state-schema.js';
import type { ReviewReport } from '../consent/report.js';

/**
 * Asked before a plugin's hooks may run (plugins.md Q4, Q5; STYLE rule 1: consent comes through an
 * injected function, only the CLI prompts). Called with the review of the surface to approve, whose
 * `diff` is the change against the consented surface (null when nothing was consented yet).
 * Resolves true to consent. May throw E_CANCELLED.
 */
export type Confirm = (review: ReviewReport) => Promise<boolean>;

/** What the plugin operations work on. */
export interface PluginContext {
  paths: StorePaths;
  /** Absent when no question can be asked (no TTY): operations then never enable silently. */
  confirm?: Confirm;
  /** The clock for consent and install times. */
  now?: () => Date;
  /** How long to wait for another command's store lock (D3); default 30 s. */
  lockWaitMs?: number;
  /** The built-in registries; default: `examples` at the package's registry-fixtures/. */
  defaults?: Readonly<Record<string, RegistryRecord>>;
  /** Timeouts and retries of index and tarball downloads (http.ts defaults otherwise). */
  fetch?: DownloadTimings;
  /** Progress of downloads and bulk installs (docs/reference/rules/cli.md#conventions: the CLI draws it on a TTY). */
  onProgress?: (progress: InstallProgress) => void;
  /** HOOKPM_NPM_REGISTRY, npm config and git read from here (environment.ts: default process.env). */
  env?: Record<string, string | undefined>;
  /** Where relative locations resolve (environment.ts: default process.cwd()). */
  cwd?: string;
}

/** A download's bytes so far, or one more plugin of a bulk install staged. */
export type InstallProgress =
  | { kind: 'download'; plugin: string; received: number; total: number | null }
  | { kind: 'staged'; plugin: string; done: number; total: number };

export function nowIso(ctx: PluginContext): string {
  return (ctx.now?.() ?? new Date()).toISOString();
}

export function lockOptions(ctx: PluginContext): { waitMs?: number } {
  return ctx.lockWaitMs === undefined ? {} : { waitMs: ctx.lockWaitMs };
}
