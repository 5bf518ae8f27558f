import type { HookpmError } from '../../../errors.js';
import type { Lockfile } from '../../../project/lockfile.js';
import type { ProjectManifest } from '../../../project/project-manifest.js';
import type { PluginRecord, State } from '../../../store/state/state-schema.js';
import type { ProjectFiles } from '../../../workspace/project-files.js';
import type { StagedPlugin } from '../staging/types.js';
import type { InstalledEntry } from './record.js';

/**
 * Where an install transaction records its plugins (README "Projects and teams"): the user's own
 * records (`state.plugins`), or one project's (`state.projects[key]`). Every tree goes to the one
 * shared store either way; consent stays the user's.
 */
export type InstallScope = { kind: 'user' } | ProjectInstallScope;

export interface ProjectInstallScope {
  kind: 'project';
  /** The project root (where hookpm.json and hookpm.lock are). */
  root: string;
  /** The project's canonical root (state.projects key). */
  key: string;
  /** The range hookpm.json asks for, per id (the records' `range`). */
  ranges: Readonly<Record<string, string>>;
  /** `ci` and `install` without specs: the project's records become exactly the staged plugins. */
  exact: boolean;
  /** Ids whose project records are removed (uninstall --project). */
  remove?: readonly string[];
  /**
   * With `remove`: delete the data directory of each removed id that no record (user-wide or of
   * any project) names any more (plugins.md V3; the directory is one per id). False: keep them all.
   */
  removeData?: boolean;
  /**
   * The project files as the command read them and what to write: checked under the lock before
   * the state is written (another command that changed them meanwhile makes this one fail with
   * E_PROJECT_FILE, having changed nothing), written right after the state, still under the lock.
   */
  files?: { read: ProjectFiles; next: { manifest?: ProjectManifest; lock: Lockfile } };
}

/** What a transaction did: one entry per staged plugin, notes, the project files it wrote. */
export interface TransactionResult {
  entries: InstalledEntry[];
  /** Things the user should know (how to enable, what --force does), for the CLI to print. */
  notes: string[];
  /** The project files written (absolute paths); none for the user scope and for `ci`. */
  wrote: string[];
  /** Per id of a project scope's `remove`: what became of its data directory. */
  data: RemovedData[];
}

/** What became of a removed plugin's data directory. */
export interface RemovedData {
  id: string;
  /** The data directory deleted; null when kept (`keptFor`, or removeData false). */
  removed: string | null;
  keptFor: string[];
}

/** The records of `scope` in a draft state (a project's created empty when it has none). */
export function draftRecords(state: State, scope: InstallScope): Record<string, PluginRecord> {
  if (scope.kind === 'user') return state.plugins;
  state.projects ??= {};
  return (state.projects[scope.key] ??= { plugins: {} }).plugins;
}

/**
 * What differs between the scopes inside the one transaction (transaction.ts runs them in this
 * order, under the store lock, on a draft of the state): user-rules.ts and project-rules.ts.
 */
export interface ScopeRules {
  /** Before any plugin: checks against the state as it is now, and the records the command drops. */
  open(draft: State, staged: readonly StagedPlugin[]): void;
  /** One staged plugin promoted (or kept as installed), consent decided, its record in `draft`. */
  commitOne(draft: State, staged: StagedPlugin, notes: string[]): Promise<InstalledEntry>;
  /**
   * Last, before the state is written: empty records pruned, the project files re-checked and
   * their new bytes prepared beside them (a failure here leaves them as they were).
   */
  close(draft: State): void;
  /**
   * Right after the state is written, still under the lock: the prepared files put in place; the
   * files written (absolute). When it throws, the files are as they were before the transaction.
   */
  written(): string[];
  /**
   * The ids whose data directories `finish` may delete (when no record names them any more),
   * written into the transaction's mark (collect-marker.ts) so that a crash before `finish` leaves
   * them to the next collection.
   */
  readonly removesData: readonly string[];
  /** The transaction failed before `written`: whatever `close` prepared is removed. */
  abandon(): void;
  /** After collection: what became of the data directories of the records removed. */
  finish(draft: State): Promise<RemovedData[]>;
  /** The error that ends the command when plugins wait for consent no one could give, or null. */
  consentRequired(entries: readonly InstalledEntry[], notes: string[]): HookpmError | null;
}
