import type { InstalledEntry } from '../install/record.js';

/** What a project operation (install, ci, update, uninstall with --project) did. */
export interface ProjectInstallResult {
  schemaVersion: 1;
  /** The project root (where hookpm.json and hookpm.lock are). */
  project: string;
  installed: InstalledEntry[];
  /** The project files written (absolute paths); `ci` writes none. */
  wrote: string[];
  notes: string[];
}
