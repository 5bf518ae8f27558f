import type { DownloadTimings } from '../../../registry/cache-tarball.js';
import type { StorePaths } from '../../../store/store-paths.js';
import type { RegistryRecord } from '../../../store/state/state-schema.js';
import type { ReviewReport } from '../consent/report.js';
import type { PolicyInForce } from '../../../policy/policy.js';

/**
 * Asked before a plugin's hooks may run (plugins.md Q4, Q5; STYLE rule 1: consent comes through an
 * injected function, only the CLI prompts). Called with the review of the surface to approve, whose
 * `diff` is the change against the consented surface (null when nothing was consented yet).
 * Resolves true to consent. May throw E_CANCELLED.
 */
export type Confirm = (review: ReviewReport) => Promise<boolean>;

/**
 * How consent questions are answered, decided once per command
 * (docs/reference/rules/cli.md#conventions): `yes` (`--yes`: every question is answered yes), `ask`
 * (a TTY: `confirm` asks), `none` (no question can be asked: operations never enable silently,
 * E_CONSENT_REQUIRED).
 */
export type ConsentMode = 'yes' | 'ask' | 'none';

/** A download's bytes so far, one registry index's bytes so far, or one more plugin of a bulk install staged. */
export type InstallProgress =
  | { kind: 'download'; plugin: string; received: number; total: number | null }
  | { kind: 'index'; registry: string; received: number; total: number | null }
  | { kind: 'staged'; plugin: string; done: number; total: number };

/**
 * The one context every operation runs with, created once per command by the CLI
 * (cli/operation-context.ts) or by a library host: the store, the network settings, how consent
 * is asked, where progress goes, the clock and the lock wait. Steps read what they need of it;
 * none is passed as a separate flag.
 */
export interface OperationContext {
  paths: StorePaths;
  /**
   * D5: only cached indexes, catalogs and tarballs (and local files); anything that must come over
   * the network is E_OFFLINE (network.ts requireNetwork). Default false.
   */
  offline?: boolean;
  /** The built-in registries; default: `examples` at the package's registry-fixtures/. */
  defaults?: Readonly<Record<string, RegistryRecord>>;
  /** Timeouts and retries of index, catalog and tarball downloads (http.ts defaults otherwise). */
  fetch?: DownloadTimings;
  /** How long a network index is used without revalidation (default INDEX_MAX_AGE_MS, 10 min; 0: always). */
  indexMaxAgeMs?: number;
  /** HOOKPM_NPM_REGISTRY, npm config and git read from here (environmentOf: default process.env). */
  env?: Record<string, string | undefined>;
  /** Where relative locations resolve (environmentOf: default process.cwd()). */
  cwd?: string;
  /**
   * Whether npm's configuration includes the project `.npmrc` of `cwd` (registry.md K4); default
   * true, as npm reads it. False where a plugin is enabled unasked (policy.md A21): a cloned
   * project's file must not choose the registry such a plugin comes from.
   */
  npmProjectConfig?: boolean;
  /** Default: `ask` when `confirm` is given, else `none` (consentModeOf). */
  consent?: ConsentMode;
  /** Absent when no question can be asked (no TTY): operations then never enable silently. */
  confirm?: Confirm;
  /** Progress of downloads and bulk installs (docs/reference/rules/cli.md#conventions: the CLI draws it on a TTY). */
  onProgress?: (progress: InstallProgress) => void;
  /** The clock for consent, install and cache times. */
  now?: () => Date;
  /** How long to wait for another command's store lock (D3); default 30 s. */
  lockWaitMs?: number;
  /**
   * The administrator's policy in force (docs/reference/rules/policy.md): absent until a step first
   * needs it, then read once from `env` (steps/policy/policy-of.ts) and kept here for the command.
   */
  policy?: PolicyInForce;
}

/** The process environment and working directory an operation reads npm config, git and paths from. */
export interface Environment {
  env: Record<string, string | undefined>;
  cwd: string;
}

/** The context's `env` and `cwd`; a context built without them (a library host, a test) gets this process's. */
export function environmentOf(ctx: Pick<OperationContext, 'env' | 'cwd'>): Environment {
  return { env: ctx.env ?? process.env, cwd: ctx.cwd ?? process.cwd() };
}

export function consentModeOf(ctx: Pick<OperationContext, 'consent' | 'confirm'>): ConsentMode {
  return ctx.consent ?? (ctx.confirm === undefined ? 'none' : 'ask');
}

export function nowIso(ctx: Pick<OperationContext, 'now'>): string {
  return (ctx.now?.() ?? new Date()).toISOString();
}

export function lockOptions(ctx: Pick<OperationContext, 'lockWaitMs'>): { waitMs?: number } {
  return ctx.lockWaitMs === undefined ? {} : { waitMs: ctx.lockWaitMs };
}
