import type { LoadIndexOptions } from '../../../registry/indexes/load-index.js';
import type { StorePaths } from '../../../store/store-paths.js';
import type { RegistryRecord } from '../../../store/state/state-schema.js';

/** What the registry operations (registry add/remove/list/update, search, info) work on. */
export interface RegistryContext {
  paths: StorePaths;
  /** D5: use only cached indexes for network registries, and say so. */
  offline: boolean;
  /** The built-in registries; default: `examples` at the package's registry-fixtures/. */
  defaults?: Readonly<Record<string, RegistryRecord>>;
  now?: () => Date;
  /** How long to wait for another command's store lock (D3); default 30 s. */
  lockWaitMs?: number;
  /** Download progress of one registry's index (the CLI shows it on a TTY). */
  onProgress?: (registry: string, received: number, total: number | null) => void;
  /** How long a network index is used without revalidation (default INDEX_MAX_AGE_MS, 10 min; 0: always). */
  indexMaxAgeMs?: number;
  /** Timeouts and retries of index fetches. */
  fetch?: LoadIndexOptions['fetch'];
  /** HOOKPM_NPM_REGISTRY, npm config and git read from here (environment.ts: default process.env). */
  env?: Record<string, string | undefined>;
  /** Where relative locations resolve (environment.ts: default process.cwd()). */
  cwd?: string;
}

export function registryLockOptions(ctx: RegistryContext): { waitMs?: number } {
  return ctx.lockWaitMs === undefined ? {} : { waitMs: ctx.lockWaitMs };
}
