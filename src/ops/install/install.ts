/**
 * The install transaction of registry.md section 7, step by step -> the files of ops/install/ that
 * do it (installPlugins below runs them in this order):
 * 1. Resolve -> resolve.ts (parses the specs, loads the indexes once, from the cache or the
 *    network, revalidated when a spec does not resolve), pick.ts (a version of an index registry,
 *    V1-V3), resolve-catalog.ts (a marketplace or npm registry), source.ts (a path, `npm:`).
 *    Reviewing is `hookpm review <spec>`: the same resolve and staging (../review/review-any.ts).
 * 2. Download, verifying size and sha512 while streaming -> stage-all.ts stages every source
 *    through stage.ts, which picks the stager of its kind: stage-tarball.ts (registry tarballs
 *    into the tarball cache, D5; a file or URL into a scratch directory), stage-npm.ts with
 *    fetch-npm.ts (picks the npm version, then downloads), stage-marketplace.ts with
 *    fetch-marketplace.ts (copies or clones the tree; tree-integrity.ts gives its integrity).
 * 3. Pre-scan the archive, then extract into a fresh staging directory -> stage-tarball.ts
 *    (fetch-npm.ts for npm); stage.ts copies a directory instead.
 * 4. Validate, recompute events and surfaceHash, check name and version -> staged.ts (finishStage
 *    with inspect.ts; requireManifest; checkAgainstIndex), fetch-npm.ts (the package's version),
 *    stage-marketplace.ts (the range asked for; V3 with pick.ts).
 * 5. Move the tree into its versioned directory -> this file (commit, installOne), holding the
 *    store lock, after V3 again against the state as it is now (pick.ts).
 * 6. Consent, then the state -> ../review/review-staged.ts (the surface diff),
 *    ../review/consent.ts (decides; ctx.confirm asks), record.ts (the record, pending or
 *    consented); this file writes the state once, last.
 * 7. Collect what is left -> this file (collectGarbage; stageAndCommit removes leftover staging).
 * `--dry-run` reports the plan after step 4 instead of taking steps 5-7 -> plan.ts.
 */
import { existsSync } from 'node:fs';
import { rm, rmdir } from 'node:fs/promises';
import { HookpmError } from '../../errors.js';
import { commitLocked } from './commit-locked.js';
import { pluginsDir } from '../../store/paths.js';
import { assertStoreWritable } from '../../store/check-writable.js';
import { collectGarbage } from '../../store/collect.js';
import { ensureDataDir } from '../../store/data-dir.js';
import { installDir, promoteTree } from '../../store/layout.js';
import { listTree } from '../../store/fingerprint.js';
import { installedFilesDir, writeInstalledFiles } from '../../store/installed-files.js';
import { readState, writeState } from '../../store/state/state.js';
import type { State } from '../../store/state/state-schema.js';
import { decideConsent, type EnableMode } from '../review/consent.js';
import {
  applyConsent,
  entryOf,
  keptOptOuts,
  pendingOf,
  recordOf,
  type InstalledEntry,
  type InstallResult,
} from './record.js';
import type { InstallOptions, TransactionOptions } from './options.js';
import type { InstallSource, StagedPlugin } from './types.js';
import { assertKnownIntegrity, isFromRegistry } from './pick.js';
import { rememberIntegrity } from '../../store/state/known-integrity.js';
import { resolveInstallSources } from './resolve.js';
import { stageAll } from './stage-all.js';
import { nowIso, type PluginContext } from '../plugin-context.js';
import { reviewStaged } from '../review/review-staged.js';

/**
 * `hookpm install <spec...>` as the transaction of registry.md section 7: a read-only store fails
 * first (E_STORE_READONLY, before any network access), then every spec is resolved
 * (resolve.ts) and stageAndCommit runs. With `dryRun`, the plan instead (plan.ts).
 */
export async function installPlugins(
  ctx: PluginContext,
  opts: InstallOptions,
): Promise<InstallResult> {
  if (!opts.dryRun) await assertStoreWritable(ctx.paths);
  const resolved = await resolveInstallSources(ctx, opts.specs, {
    cwd: opts.cwd,
    offline: opts.offline === true,
    includePrerelease: opts.includePrerelease === true,
    acceptIntegrityChange: opts.acceptIntegrityChange === true,
  });
  const result = opts.dryRun
    ? await (
        await import('./plan.js')
      ).planInstall(ctx, resolved.sources, { ...opts, state: resolved.state })
    : await stageAndCommit(ctx, resolved.sources, opts, resolved.notes);
  result.notes.unshift(...resolved.notes);
  return result;
}

/**
 * Steps 2-7 for resolved sources: stages each (download, verify, scan, extract, validate) without
 * the lock - a staging tree is named for its live process, so collection spares it - then, holding
 * the store lock (D3): re-checks V3 against the state as it is now, promotes each tree into its
 * versioned directory (D4), asks for consent (Q4, Q5; through ctx.confirm), writes the state once,
 * last, and collects leftovers. Any failure leaves the state file and every installed tree as they
 * were. `notes` of the caller are kept when E_CONSENT_REQUIRED ends the command.
 */
export async function stageAndCommit(
  ctx: PluginContext,
  sources: readonly InstallSource[],
  opts: TransactionOptions,
  notes: readonly string[] = [],
): Promise<InstallResult> {
  const staged = await stageAll(sources, {
    ctx,
    offline: opts.offline === true,
    cwd: opts.cwd,
    acceptIntegrityChange: opts.acceptIntegrityChange === true,
  });
  return commitLocked(ctx, staged, () => commit(ctx, staged, opts, notes));
}

async function commit(
  ctx: PluginContext,
  staged: readonly StagedPlugin[],
  opts: TransactionOptions,
  earlier: readonly string[],
): Promise<InstallResult> {
  const before = await readState(ctx.paths);
  // Directories a first install creates, removed again if it fails (or is cancelled).
  const fresh = [pluginsDir(ctx.paths), installedFilesDir(ctx.paths)].filter((d) => !existsSync(d));
  if (opts.acceptIntegrityChange !== true)
    for (const plugin of staged) recheckIntegrity(before, plugin);
  const draft = structuredClone(before);
  const result: InstallResult = { installed: [], dryRun: false, notes: [] };
  const unconsented = new Set<string>();
  try {
    for (const plugin of staged) {
      const entry = await installOne(ctx, draft, plugin, opts, result.notes);
      result.installed.push(entry);
      if (entry.status === 'installed' && !entry.enabled && before.plugins[entry.id] === undefined)
        unconsented.add(entry.id);
      const { id, version } = plugin.inspected;
      if (isFromRegistry(plugin.source)) rememberIntegrity(draft, id, version, plugin.integrity);
    }
    if (JSON.stringify(draft) !== JSON.stringify(before)) await writeState(ctx.paths, draft);
  } catch (error) {
    await collectGarbage(ctx.paths, before).catch(() => undefined);
    // A first install that failed (or was cancelled) leaves no empty directory behind.
    for (const dir of fresh) await rmdir(dir).catch(() => undefined);
    throw error;
  }
  await collectGarbage(ctx.paths, draft);
  // V3: data directories are created once the state that enables them is written.
  for (const entry of result.installed) if (entry.enabled) await ensureDataDir(ctx.paths, entry.id);
  if (opts.enable === 'ask' && ctx.confirm === undefined) {
    const waiting = result.installed.filter((e) => e.status === 'pending');
    if (waiting.length > 0) throw consentRequired(waiting, [...earlier, ...result.notes]);
    const inactive = result.installed.filter((e) => unconsented.has(e.id));
    if (inactive.length > 0) throw notEnabled(inactive, [...earlier, ...result.notes]);
  }
  return result;
}

/**
 * V3 again under the lock, on the staged bytes of every registry kind (an npm plugin's id and
 * version are known only now): another command may have installed the version meanwhile, and
 * the state keeps the integrity of versions installed before, uninstalled ones included.
 */
function recheckIntegrity(state: State, plugin: StagedPlugin): void {
  const { source, inspected } = plugin;
  if (!isFromRegistry(source)) return;
  assertKnownIntegrity(state, {
    registry: source.registry,
    name: inspected.plugin.name,
    version: inspected.version,
    entry: { tarball: source.path, integrity: plugin.integrity },
  });
}

/**
 * Q5: in non-interactive use without --yes, a widened update (or one that changes code files, README
 * "The consent model") is installed as pending and the command says so by failing with
 * E_CONSENT_REQUIRED; the consented version stays active.
 */
function consentRequired(waiting: readonly InstalledEntry[], notes: string[]): HookpmError {
  const ids = waiting.map((e) => e.id);
  const first = ids[0] ?? '';
  return new HookpmError(
    'E_CONSENT_REQUIRED',
    `${ids.join(', ')}: the new version changes what runs (hooks added or changed, or code files changed) beyond what you consented to; it is installed and waits for your consent, and the consented version stays active`,
    {
      plugins: ids,
      notes,
      hint: `Run \`hookpm review ${first}\` to see the changes, then \`hookpm enable ${first} --yes\`.`,
    },
  );
}

/**
 * The one rule of every command that needs consent (install, update, enable, project install):
 * where no question can be asked (no terminal) and `--yes` was not given, the command does what
 * needs no consent, and fails with E_CONSENT_REQUIRED naming the `--yes` that answers it. Here: a
 * plugin newly installed is left installed and disabled.
 */
function notEnabled(entries: readonly InstalledEntry[], notes: string[]): HookpmError {
  const ids = entries.map((e) => e.id);
  const first = ids[0] ?? '';
  return new HookpmError(
    'E_CONSENT_REQUIRED',
    `${ids.join(', ')}: installed but not enabled: enabling ${ids.length === 1 ? 'it' : 'them'} needs your consent to what ${ids.length === 1 ? 'it runs' : 'they run'}, and no question can be asked here`,
    {
      plugins: ids,
      notes: notes.filter(
        (n) => !ids.some((id) => n.startsWith(`${id} is installed but not enabled`)),
      ),
      hint: `Run \`hookpm review ${first}\` to see what it runs, then \`hookpm enable ${first} --yes\` (or install with --yes).`,
    },
  );
}

async function installOne(
  ctx: PluginContext,
  draft: State,
  staged: StagedPlugin,
  opts: TransactionOptions,
  notes: string[],
): Promise<InstalledEntry> {
  const { id, version } = staged.inspected;
  const existing = draft.plugins[id];
  if (
    existing !== undefined &&
    !opts.force &&
    existing.version === version &&
    existing.fingerprint === staged.fingerprint &&
    existing.integrity === staged.integrity
  ) {
    await rm(staged.dir, { recursive: true, force: true });
    if (opts.enable === 'yes' && opts.preserveDisabled !== true && !existing.enabled) {
      // Issue 18 item 4: `install X --yes` of a disabled X enables it (--yes is consent to these files).
      const enabled = {
        ...existing,
        enabled: true,
        consent: { surfaceHash: existing.surfaceHash, at: nowIso(ctx), version },
      };
      draft.plugins[id] = enabled;
      notes.push(`${id} ${version} was already installed, but disabled; --yes enabled it`);
      return entryOf(enabled, 'unchanged');
    }
    notes.push(`${id} ${version} is already installed with the same files; --force reinstalls it`);
    return entryOf(existing, 'unchanged');
  }
  const path = await promoteTree(
    staged.dir,
    installDir(ctx.paths, { id, version, integrity: staged.integrity }),
  );
  // Q6, issue 15 item 4: what the tree held, so files its plugin creates later are told apart.
  const files = staged.files ?? (await listTree(path));
  await writeInstalledFiles(ctx.paths, staged.fingerprint, files);
  const review = await reviewStaged(staged, existing, ctx.paths, path);
  // An update leaves a disabled plugin disabled: it is neither asked about nor enabled by --yes.
  const mode: EnableMode =
    opts.preserveDisabled === true && existing !== undefined && !existing.enabled
      ? 'no'
      : opts.enable;
  const decision = await decideConsent(review, existing, mode, ctx.confirm);
  const record = recordOf(staged, path, nowIso(ctx), existing?.installedAt);
  if (decision === 'none' && existing?.consent != null) {
    // Q5: a widened surface, or changed code, waits for consent; the consented version stays active.
    const { pending: _old, ...active } = existing;
    draft.plugins[id] = { ...active, pending: pendingOf(record) };
    notes.push(
      `${id} ${version} is installed but changes what runs beyond what you consented to; it stays on ${existing.version} until you run \`hookpm review ${id}\` and \`hookpm enable ${id}\``,
    );
    return { ...entryOf(draft.plugins[id], 'pending') };
  }
  applyConsent(record, existing, decision, mode, nowIso(ctx));
  const kept = keptOptOuts(existing?.disabledHooks, review.hooks);
  if (kept !== undefined) record.disabledHooks = kept;
  draft.plugins[id] = record;
  if (!record.enabled && existing === undefined)
    notes.push(
      `${id} is installed but not enabled; run \`hookpm enable ${id}\` to review and enable it`,
    );
  return entryOf(record, 'installed');
}
