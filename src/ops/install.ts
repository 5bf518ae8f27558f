import { rm } from 'node:fs/promises';
import { HookpmError } from '../errors.js';
import { collectGarbage } from '../store/collect.js';
import { ensureDataDir } from '../store/data-dir.js';
import { installDir, promoteTree } from '../store/layout.js';
import { readState, withStoreLock, writeState } from '../store/state.js';
import type { PluginRecord, State } from '../store/state-schema.js';
import { decideConsent, type EnableMode } from './consent-decision.js';
import { planInstall } from './install-dry-run.js';
import {
  applyConsent,
  entryOf,
  pendingOf,
  recordOf,
  type InstalledEntry,
} from './install-record.js';
import { readConsentedEntries } from './installed-plugin.js';
import { stagePlugin, type StagedPlugin } from './install-stage.js';
import { resolveInstallSource, type InstallSource } from './install-source.js';
import { lockOptions, nowIso, type PluginContext } from './plugin-context.js';
import { buildReview, type ReviewReport } from './review-report.js';

export interface InstallOptions {
  specs: readonly string[];
  /** Relative paths are taken from here. */
  cwd: string;
  enable: EnableMode;
  /** Reinstall even when the same version with the same files is installed (restores a tampered tree, Q6). */
  force: boolean;
  /** Show what would happen; change nothing. */
  dryRun: boolean;
}

export type { InstalledEntry, InstallStatus } from './install-record.js';

export interface InstallResult {
  installed: InstalledEntry[];
  dryRun: boolean;
  /** Things the user should know (how to enable, what --force does), for the CLI to print. */
  notes: string[];
}

/**
 * `hookpm install <dir...>` as the transaction of registry.md section 7: resolve each spec, then,
 * holding the store lock (D3), stage a copy of each, validate it (P4), promote it into its versioned
 * directory (D4), ask for consent (Q4, Q5; through ctx.confirm), write the state once, last, and
 * collect leftovers. Any failure leaves the state file and every installed tree as they were.
 */
export async function installPlugins(
  ctx: PluginContext,
  opts: InstallOptions,
): Promise<InstallResult> {
  const sources: InstallSource[] = [];
  for (const spec of opts.specs) sources.push(await resolveInstallSource(spec, opts.cwd));
  if (opts.dryRun) return planInstall(ctx, sources, opts);
  return withStoreLock(ctx.paths, () => transact(ctx, sources, opts), lockOptions(ctx));
}

async function transact(
  ctx: PluginContext,
  sources: readonly InstallSource[],
  opts: InstallOptions,
): Promise<InstallResult> {
  const before = await readState(ctx.paths);
  const draft = structuredClone(before);
  const result: InstallResult = { installed: [], dryRun: false, notes: [] };
  try {
    const staged: StagedPlugin[] = [];
    for (const source of sources) staged.push(await stagePlugin(source, { paths: ctx.paths }));
    for (const plugin of staged)
      result.installed.push(await installOne(ctx, draft, plugin, opts, result.notes));
    if (JSON.stringify(draft) !== JSON.stringify(before)) await writeState(ctx.paths, draft);
  } catch (error) {
    await collectGarbage(ctx.paths, before).catch(() => undefined);
    throw error;
  }
  await collectGarbage(ctx.paths, draft);
  // V3: data directories are created once the state that enables them is written.
  for (const entry of result.installed) if (entry.enabled) await ensureDataDir(ctx.paths, entry.id);
  const waiting = result.installed.filter((e) => e.status === 'pending');
  if (waiting.length > 0 && opts.enable === 'ask' && ctx.confirm === undefined)
    throw consentRequired(waiting);
  return result;
}

/**
 * Q5: in non-interactive use without --yes, a widened update is installed (as pending) and the
 * command says so by failing with E_CONSENT_REQUIRED; the consented version stays active.
 */
function consentRequired(waiting: readonly InstalledEntry[]): HookpmError {
  const ids = waiting.map((e) => e.id);
  const first = ids[0] ?? '';
  return new HookpmError(
    'E_CONSENT_REQUIRED',
    `${ids.join(', ')}: the new version asks for more hooks than you consented to; it is installed and waits for your consent, and the consented version stays active`,
    {
      plugins: ids,
      hint: `Run \`hookpm review ${first}\` to see the changes, then \`hookpm enable ${first} --yes\`.`,
    },
  );
}

async function installOne(
  ctx: PluginContext,
  draft: State,
  staged: StagedPlugin,
  opts: InstallOptions,
  notes: string[],
): Promise<InstalledEntry> {
  const { id, version } = staged.inspected;
  const existing = draft.plugins[id];
  if (
    existing !== undefined &&
    !opts.force &&
    existing.version === version &&
    existing.fingerprint === staged.fingerprint
  ) {
    await rm(staged.dir, { recursive: true, force: true });
    notes.push(`${id} ${version} is already installed with the same files; --force reinstalls it`);
    return entryOf(existing, 'unchanged');
  }
  const path = await promoteTree(
    staged.dir,
    installDir(ctx.paths, { id, version, integrity: staged.integrity }),
  );
  const review = await reviewStaged(staged, existing);
  const decision = await decideConsent(review, existing, opts.enable, ctx.confirm);
  const record = recordOf(staged, path, nowIso(ctx));
  if (decision === 'none' && existing?.consent != null) {
    // Q5: a widened surface waits for consent; the consented version stays active.
    const { pending: _old, ...active } = existing;
    draft.plugins[id] = { ...active, pending: pendingOf(record) };
    notes.push(
      `${id} ${version} is installed but asks for more than you consented to; it stays on ${existing.version} until you run \`hookpm review ${id}\` and \`hookpm enable ${id}\``,
    );
    return { ...entryOf(draft.plugins[id], 'pending') };
  }
  applyConsent(record, existing, decision, opts.enable, nowIso(ctx));
  draft.plugins[id] = record;
  if (!record.enabled && existing === undefined)
    notes.push(
      `${id} is installed but not enabled; run \`hookpm enable ${id}\` to review and enable it`,
    );
  return entryOf(record, 'installed');
}

async function reviewStaged(
  staged: StagedPlugin,
  existing: PluginRecord | undefined,
): Promise<ReviewReport> {
  return buildReview({
    id: staged.inspected.id,
    version: staged.inspected.version,
    plugin: staged.inspected.plugin,
    surface: staged.inspected.surface,
    source: staged.source.path,
    integrity: staged.integrity,
    consentedHash: existing?.consent?.surfaceHash ?? null,
    consentedEntries: existing === undefined ? null : await readConsentedEntries(existing),
    installed:
      existing === undefined
        ? null
        : {
            version: existing.version,
            enabled: existing.enabled,
            pending: existing.pending?.version ?? null,
          },
  });
}
