/**
 * The install transaction of docs/reference/rules/registry.md#install-transaction, one for both
 * scopes (install-scope.ts: the user's records, or a project's), step by step -> the files that do
 * it. `install` (ops/install/install.ts) and `update` (ops/plugins/update.ts) run steps 1-7 for the
 * user scope; the project commands (ops/project/: `install` in a project, `install --project`,
 * `ci`, `update --project`, `uninstall --project`) stage from their specs or from hookpm.lock
 * (stage-locked.ts) and run steps 5-7 for the project scope.
 * 1. Resolve -> ../staging/resolve.ts (parses the specs, loads the indexes once, from the cache or
 *    the network, revalidated when a spec does not resolve), ../staging/pick.ts (a version of an
 *    index registry, V1-V3), ../staging/resolve-catalog.ts (a marketplace or npm registry),
 *    ../staging/source.ts (a path, `npm:`). Reviewing is `hookpm review <spec>`: the same resolve
 *    and staging (ops/review/review-any.ts).
 * 2. Download, verifying size and sha512 while streaming -> ../staging/stage-all.ts stages every
 *    source through stage.ts, which picks the stager of its kind: stage-tarball.ts (registry
 *    tarballs into the tarball cache, D5; a file or URL into a scratch directory), stage-npm.ts
 *    with ../catalogs/fetch-npm.ts (picks the npm version, then downloads), stage-marketplace.ts
 *    with ../catalogs/fetch-marketplace.ts (copies or clones the tree; tree-integrity.ts gives its
 *    integrity).
 * 3. Pre-scan the archive, then extract into a fresh staging directory -> stage-tarball.ts
 *    (fetch-npm.ts for npm); stage.ts copies a directory instead.
 * 4. Validate, recompute events and surfaceHash, check name and version -> ../staging/staged.ts
 *    (finishStage with inspect.ts; requireManifest; checkAgainstIndex), fetch-npm.ts (the
 *    package's version), stage-marketplace.ts (the range asked for; V3 with pick.ts).
 * 5. Move the tree into its versioned directory -> this file (commitTransaction) holding the store
 *    lock (commit-locked.ts), promote-staged.ts; for the user scope after V3 again against the
 *    state as it is now (user-rules.ts, pick.ts).
 * 6. Consent, then the state -> ../review/review-staged.ts (the surface diff),
 *    ../consent/consent.ts (decides; ctx.confirm asks), record.ts (the record, pending or
 *    consented), by the rules of the scope (user-rules.ts; project-rules.ts: consent given in any
 *    scope carries, project-consent.ts); this file writes the state once, last, then a project's
 *    files.
 * 7. Collect what is left -> this file (collectGarbage in the plugin directories the transaction
 *    touched, S41, with markTransaction's mark for a crash, which also lists the data directories
 *    a project's uninstall deletes, plugins.md V3; commitLocked removes leftover staging).
 * `--dry-run` reports the plan after step 4 instead of taking steps 5-7 -> plan.ts.
 */
import { existsSync } from 'node:fs';
import { rmdir } from 'node:fs/promises';
import { pluginsDir } from '../../../store/paths.js';
import { collectGarbage, collectMarkedData } from '../../../store/collect.js';
import { recordTrees, touchedDirs } from '../../../store/named-trees.js';
import { markTransaction } from '../../../store/collect-marker.js';
import { pluginVersionsDir } from '../../../store/plugin-dirs.js';
import { ensureDataDir } from '../../../store/data-dir.js';
import { installedFilesDir } from '../../../store/installed-files.js';
import { rememberIntegrity } from '../../../store/state/known-integrity.js';
import {
  readStateDraft,
  restoreState,
  startStateFile,
  stateBefore,
  writeDraft,
  type StateDraft,
} from '../../../store/state/state-draft.js';
import type { OperationContext } from '../context/operation-context.js';
import { isFromRegistry } from '../staging/pick.js';
import { stageAll, stagedNotes } from '../staging/stage-all.js';
import type { InstallSource, StagedPlugin } from '../staging/types.js';
import { commitLocked } from './commit-locked.js';
import { requireStagedAllowed } from '../policy/source-allowed.js';
import { requireStagedSandboxed } from '../policy/sandbox-allowed.js';
import type { InstallScope, ScopeRules, TransactionResult } from './install-scope.js';
import type { CommitOptions, TransactionOptions } from './options.js';
import type { InstalledEntry, InstallResult } from './record.js';
import { userRules } from './user-rules.js';

/**
 * Steps 2-7 for resolved sources: stages each (download, verify, scan, extract, validate) without
 * the lock - a staging tree is named for its live process, so collection spares it - then commits
 * them into `scope` (commitTransaction). `notes` of the caller are kept when E_CONSENT_REQUIRED
 * ends the command.
 */
export async function stageAndCommit(
  ctx: OperationContext,
  sources: readonly InstallSource[],
  scope: InstallScope,
  opts: TransactionOptions,
  notes: readonly string[] = [],
): Promise<TransactionResult> {
  const staged = await stageAll(sources, {
    ctx,
    cwd: opts.cwd,
    acceptIntegrityChange: opts.acceptIntegrityChange === true,
  });
  const deprecated = stagedNotes(staged);
  const result = await commitTransaction(ctx, staged, scope, opts, [...notes, ...deprecated]);
  result.notes.unshift(...deprecated);
  return result;
}

/**
 * Steps 5-7 for staged plugins, holding the store lock (D3): the scope's rules check the state as
 * it is now, then each tree is promoted into its versioned directory of the shared store (D4),
 * consent is decided (Q4, Q5; ctx.confirm asks) and its record written into a draft of the state;
 * the state is written once, last (then a project's files, still under the lock), and what no
 * record names is collected. Any failure leaves the state file and every installed tree as they
 * were (and no directory a first install created); staging trees not promoted are removed either
 * way. Plugins left waiting for consent where no question can be asked (no TTY, no `--yes`) end
 * the command with E_CONSENT_REQUIRED, the state already consistent; `earlier` notes go with it.
 */
export async function commitTransaction(
  ctx: OperationContext,
  staged: readonly StagedPlugin[],
  scope: InstallScope,
  opts: CommitOptions,
  earlier: readonly string[] = [],
): Promise<TransactionResult> {
  // A project's rules (and the project files they read and write) load only for a project scope.
  const rules =
    scope.kind === 'user'
      ? userRules(ctx, opts)
      : (await import('./project-rules.js')).projectRules(ctx, scope, opts);
  return commitLocked(ctx, staged, () => commit(ctx, staged, rules, earlier));
}

async function commit(
  ctx: OperationContext,
  staged: readonly StagedPlugin[],
  rules: ScopeRules,
  earlier: readonly string[],
): Promise<TransactionResult> {
  // S40: the state as it is now, owned by this transaction: neither cloned nor parsed twice.
  const read = await readStateDraft(ctx.paths);
  const draft = read.state;
  requireStagedAllowed(ctx, draft, staged);
  // Directories a first install creates, removed again if it fails (or is cancelled): the cache
  // one holds the seal of the state file startStateFile writes (restoreState removes both).
  const fresh = [pluginsDir(ctx.paths), installedFilesDir(ctx.paths), ctx.paths.cache].filter(
    (d) => !existsSync(d),
  );
  // V3: data directories a killed uninstall left, before a record may name their ids again.
  await collectMarkedData(ctx.paths, draft);
  // S41: the trees named before, and a mark that makes a crash from here on walk every directory
  // (and delete the data directories `finish` would have).
  const named = recordTrees(draft);
  const unmark = await markTransaction(ctx.paths, rules.removesData);
  const entries: InstalledEntry[] = [];
  const notes: string[] = [];
  try {
    // Inside the try: a refusal here (J1, A14) also takes the transaction's mark away.
    rules.open(draft, staged);
    // B3: before any tree is promoted, so a crash leaves leftovers, not trees without a state.
    await startStateFile(ctx.paths, read);
    for (const plugin of staged) {
      entries.push(await rules.commitOne(draft, plugin, notes));
      const { id, version } = plugin.inspected;
      if (isFromRegistry(plugin.source)) rememberIntegrity(draft, id, version, plugin.integrity);
    }
    rules.close(draft);
    // A18: decided on the draft, so a refusal writes nothing and the promoted trees are collected.
    requireStagedSandboxed(ctx, draft, staged, entries);
    await writeDraft(ctx.paths, read);
  } catch (error) {
    rules.abandon();
    await undo(ctx, read, fresh);
    unmark();
    throw error;
  }
  let wrote: string[];
  try {
    wrote = rules.written();
  } catch (error) {
    // The project files are as they were: so is the state, written back as it was read.
    await restoreState(ctx.paths, read).catch(() => undefined);
    await undo(ctx, read, fresh);
    unmark();
    throw error;
  }
  const touched = touchedDirs(named, recordTrees(draft));
  for (const plugin of staged) touched.add(pluginVersionsDir(ctx.paths, plugin.inspected.id));
  await collectGarbage(ctx.paths, draft, touched);
  // V3: data directories are created once the state that enables them is written.
  for (const entry of entries) if (entry.enabled) await ensureDataDir(ctx.paths, entry.id);
  const data = await rules.finish(draft);
  unmark();
  const waiting = rules.consentRequired(entries, [...earlier, ...notes]);
  if (waiting !== null) throw waiting;
  return { entries, notes, wrote, data };
}

/**
 * After a failure, with the state on disk the one read: what the transaction promoted is
 * collected, and a first install leaves no empty directory behind, nor the empty state file
 * startStateFile wrote.
 */
async function undo(
  ctx: OperationContext,
  read: StateDraft,
  fresh: readonly string[],
): Promise<void> {
  await stateBefore(ctx.paths, read)
    .then((before) => collectGarbage(ctx.paths, before))
    .catch(() => undefined);
  if (read.bytes === null) await restoreState(ctx.paths, read).catch(() => undefined);
  for (const dir of fresh) await rmdir(dir).catch(() => undefined);
}

/** A user-scope transaction's result as `install` and `update` report it. */
export function installResultOf(result: TransactionResult): InstallResult {
  return { installed: result.entries, dryRun: false, notes: result.notes };
}
