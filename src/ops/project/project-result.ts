import type { LockEntry } from '../../project/lockfile.js';
import type { InstalledEntry } from '../steps/transaction/record.js';
import type { RequiredBroughtIn } from '../steps/transaction/bring-in-required.js';

/** What a project operation (install, ci, update, uninstall with --project) did. */
export interface ProjectInstallResult {
  /** The project root (where hookpm.json and hookpm.lock are). */
  project: string;
  installed: InstalledEntry[];
  /** The project files written (absolute paths); `ci` writes none. */
  wrote: string[];
  notes: string[];
  /** `install --dry-run` in a project: nothing was changed; `installed` holds the plans. */
  dryRun?: true;
  /** `--dry-run` only: the hookpm.lock entries that would be added or changed, by id. */
  wouldLock?: Record<string, LockEntry>;
  /** `--dry-run` only: the project files that would be written (absolute paths). */
  wouldWrite?: string[];
}

/** policy.md A21: a project operation's result with the required plugins it brought in added. */
export function withRequired(
  result: ProjectInstallResult,
  required: RequiredBroughtIn,
): ProjectInstallResult {
  return {
    ...result,
    installed: [...result.installed, ...required.installed],
    notes: [...result.notes, ...required.notes],
  };
}
