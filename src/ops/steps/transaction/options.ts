import type { EnableMode } from '../consent/consent.js';

/** What `hookpm install` is asked to do (installPlugins, ops/install/install.ts). */
export interface InstallOptions {
  specs: readonly string[];
  /** Relative paths are taken from here. */
  cwd: string;
  enable: EnableMode;
  /** Reinstall even when the same version with the same files is installed (restores a tampered tree, Q6). */
  force: boolean;
  /** Show what would happen; change nothing. */
  dryRun: boolean;
  /** V2: let ranges match prereleases. */
  includePrerelease?: boolean;
  /**
   * V3, `--force-integrity-change`: install a version whose integrity differs from the one it was
   * installed with before; the new integrity replaces the known one.
   */
  acceptIntegrityChange?: boolean;
}

/** What the transaction needs of the install options (update passes the same). */
export type TransactionOptions = Pick<
  InstallOptions,
  'cwd' | 'enable' | 'force' | 'acceptIntegrityChange'
> & {
  /** `hookpm update`: a plugin that is installed but disabled stays so (mode `no` for it). */
  preserveDisabled?: boolean;
};

/** What the commit (steps 5-7, transaction.ts) needs of them, for either scope. */
export type CommitOptions = Pick<TransactionOptions, 'enable' | 'acceptIntegrityChange'> & {
  force?: boolean;
  preserveDisabled?: boolean;
  /**
   * With `enable: 'yes'`: the plugins (ids) the `--yes` answers for, those the command named; the
   * others are asked as without it. Absent: `--yes` answers for every staged plugin.
   */
  yesFor?: ReadonlySet<string>;
};

/** The enable mode for plugin `id`: `--yes` counts only for the plugins it answers for. */
export function enableModeFor(opts: CommitOptions, id: string): EnableMode {
  if (opts.enable !== 'yes' || opts.yesFor === undefined || opts.yesFor.has(id)) return opts.enable;
  return 'ask';
}
