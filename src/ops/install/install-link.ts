import { realpath } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { HookpmError } from '../../errors.js';
import { LOCAL_REGISTRY } from '../../registry/registry-name.js';
import { collectGarbage } from '../../store/collect.js';
import { ensureDataDir } from '../../store/data-dir.js';
import { fingerprintTree } from '../../store/fingerprint.js';
import { readState, withStoreLock, writeState } from '../../store/state/state.js';
import type { PluginRecord } from '../../store/state/state-schema.js';
import { measureTree } from '../../store/tree-size.js';
import { shellWord } from '../../text/shell-word.js';
import { statPathKind } from '../../workspace/path-kind.js';
import { treeIntegrity } from '../steps/catalogs/tree-integrity.js';
import type { ReviewReport } from '../steps/consent/report.js';
import {
  consentModeOf,
  lockOptions,
  nowIso,
  type OperationContext,
} from '../steps/context/operation-context.js';
import { policyRegistryOf, requirePluginAllowed } from '../steps/policy/enforce-policy.js';
import { requireSandboxed } from '../steps/policy/sandbox-allowed.js';
import { reviewDirectory } from '../steps/review/review-tree.js';
import { keptOptOuts } from '../steps/transaction/record.js';
import { assertInstallable, inspectPluginDir } from '../steps/staging/inspect.js';

export interface LinkInstallResult {
  id: string;
  version: string;
  /** The directory, read in place (its real path). */
  path: string;
  events: string[];
  surfaceHash: string;
  linked: true;
  /** false when it was linked, enabled and consented to this surface already. */
  changed: boolean;
  review: ReviewReport;
}

/**
 * `hookpm install --link <dir>` (docs/reference/rules/plugins.md#d15), as `npm link`: the plugin
 * directory is not copied into the store; its record's `path` is the directory's real path, read
 * in place by every host, so edits need no version bump and no reinstall. Consent is to the
 * directory's surface (Q2): the review is shown and asked (or `--yes`; no question when this
 * surface is consented to already); without either E_CONSENT_REQUIRED, and nothing is recorded.
 * It replaces an installed copy of the same id (`<name>@local`), keeping the confinement the user
 * recorded with its consent (Z4) and the hooks the user turned off that the directory still has.
 * The tamper check (Q6) does not apply to it; the consent does: when the directory's surface
 * changes, its hooks stop until `hookpm enable` (or this command) consents to the new one.
 */
export async function installLinked(
  ctx: OperationContext,
  opts: { dir: string; cwd: string },
): Promise<LinkInstallResult> {
  const given = resolve(opts.cwd, opts.dir);
  if ((await statPathKind(given)) !== 'directory')
    throw new HookpmError('E_USAGE', `cannot link ${opts.dir}: it is not a plugin directory`, {
      file: given,
      hint: 'Give the path of a plugin directory, such as ./my-plugin.',
    });
  const dir = await realpath(given);
  const inspected = await inspectPluginDir(dir, {
    fallbackName: basename(dir),
    registry: LOCAL_REGISTRY,
  });
  assertInstallable(inspected, opts.dir);
  // The limits its integrity is computed under (tree-integrity.ts), checked without reading a
  // file: a directory over one is refused before its files are hashed and consent is asked.
  await measureTree(dir, opts.dir);
  return withStoreLock(
    ctx.paths,
    async () => {
      const state = await readState(ctx.paths);
      // policy.md A12, A13, A18: a linked plugin is installed and enabled like any other.
      const local = policyRegistryOf(ctx, state, LOCAL_REGISTRY);
      requirePluginAllowed(
        ctx,
        'linking',
        { name: inspected.plugin.name, registry: LOCAL_REGISTRY },
        local,
      );
      const existing = state.plugins[inspected.id];
      // Z4: the user's own confinement stays with the consent, as across updates; only
      // `enable --confine off` lifts it.
      const confine = existing?.consent?.confine;
      requireSandboxed(ctx, 'linking', inspected.id, {
        capabilities: inspected.surface.capabilities,
        confine,
      });
      const review = await reviewDirectory(dir, inspected, existing, ctx.paths);
      const surfaceHash = inspected.surface.surfaceHash;
      const already =
        existing?.linked === true &&
        existing.path === dir &&
        existing.enabled &&
        existing.consent?.surfaceHash === surfaceHash;
      if (already && existing !== undefined)
        return resultOf(existing, surfaceHash, [...inspected.surface.events], false, review);
      if (existing?.consent?.surfaceHash !== surfaceHash) await askConsent(ctx, review);
      const at = nowIso(ctx);
      const version = inspected.version;
      const record: PluginRecord = {
        id: inspected.id,
        name: inspected.plugin.name,
        registry: LOCAL_REGISTRY,
        version,
        source: dir,
        range: '',
        integrity: await treeIntegrity(dir),
        fingerprint: await fingerprintTree(dir),
        path: dir,
        enabled: true,
        installedAt: existing?.installedAt ?? at,
        updatedAt: at,
        consent: { surfaceHash, at, version, ...(confine === undefined ? {} : { confine }) },
        surfaceHash,
        events: [...inspected.surface.events],
        pending: null,
        linked: true,
      };
      // The hooks the user turned off stay off while they are hooks of the directory.
      const kept = keptOptOuts(existing?.disabledHooks, review.hooks);
      if (kept !== undefined) record.disabledHooks = kept;
      state.plugins[record.id] = record;
      await writeState(ctx.paths, state);
      await ensureDataDir(ctx.paths, record.id);
      await collectGarbage(ctx.paths, state);
      return resultOf(record, surfaceHash, record.events, true, review);
    },
    lockOptions(ctx),
  );
}

function resultOf(
  record: PluginRecord,
  surfaceHash: string,
  events: string[],
  changed: boolean,
  review: ReviewReport,
): LinkInstallResult {
  return {
    id: record.id,
    version: record.version,
    path: record.path,
    events,
    surfaceHash,
    linked: true,
    changed,
    review,
  };
}

async function askConsent(ctx: OperationContext, review: ReviewReport): Promise<void> {
  if (consentModeOf(ctx) === 'yes') return;
  if (ctx.confirm === undefined)
    throw new HookpmError(
      'E_CONSENT_REQUIRED',
      `linking ${review.id} ${review.version} needs your consent to its hooks, and no question can be asked here`,
      {
        plugin: review.id,
        hint: `Run \`hookpm review ${shellWord(review.source)}\` to see what it runs, then link it again with --yes.`,
      },
    );
  if (!(await ctx.confirm(review)))
    throw new HookpmError('E_CANCELLED', `${review.id} was not linked: consent was declined`, {
      plugin: review.id,
    });
}
