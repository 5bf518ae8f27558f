import { HookpmError } from '../../errors.js';
import { canonicalJson } from '../../json/canonical-json.js';
import { widensCapabilities, type Capabilities } from '../../plugin/capabilities.js';
import { collectGarbage } from '../../store/collect.js';
import { ensureDataDir } from '../../store/data-dir.js';
import { fingerprintTree } from '../../store/fingerprint.js';
import type { StorePaths } from '../../store/store-paths.js';
import { treeStatusOf } from '../../store/tree-status.js';
import { restoreWords } from '../../store/reinstall-command.js';
import { readState, withStoreLock, writeState } from '../../store/state/state.js';
import type { PluginRecord } from '../../store/state/state-schema.js';
import { carriedConsent } from '../steps/transaction/project-consent.js';
import { keptOptOuts, withPrevious } from '../steps/transaction/record.js';
import { findInstalled } from '../steps/installed/installed.js';
import {
  assertProjectHasRecords,
  recordsIn,
  stateIn,
  USER_RECORDS,
  type RecordScope,
} from '../steps/installed/project-records.js';
import {
  consentModeOf,
  lockOptions,
  nowIso,
  type OperationContext,
} from '../steps/context/operation-context.js';
import type { ReviewReport } from '../steps/consent/report.js';
import { reviewInstalledTree } from '../steps/review/review-installed.js';
import { installedRegistryOf, requirePluginAllowed } from '../steps/policy/enforce-policy.js';
import { requireSandboxed } from '../steps/policy/sandbox-allowed.js';

export interface EnableResult {
  id: string;
  version: string;
  enabled: true;
  events: string[];
  surfaceHash: string;
  /** false when it was already enabled with consent to this surface. */
  changed: boolean;
  /** V3: the plugin's data directory, created now if needed. */
  dataDir: string;
}

/**
 * `hookpm enable <name>` (plugins.md Q4, Q5, V3): consent to the current surface (the pending
 * update's when there is one; which then becomes the active version), then enable and create the
 * data directory; hook opt-outs that name no hook of the version enabled lapse (keptOptOuts).
 * Already consented to this surface: no question. Otherwise consent mode `yes` (--yes), else
 * ctx.confirm; without either E_CONSENT_REQUIRED, and a "no" is E_CANCELLED; nothing changes then.
 * A tree whose files no longer match its fingerprint is refused with E_PLUGIN_TAMPERED (Q6).
 * `scope`: the records of a project (`enable --project`) instead of the user-wide ones.
 * `confine` (Z4, `--confine`) is recorded with the consent: its handlers run confined so, narrowed
 * further by what the plugin declares; `off` drops it, which is asked like a consent.
 */
export function enablePlugin(
  ctx: OperationContext,
  opts: { name: string; scope?: RecordScope; confine?: Capabilities | 'off' },
): Promise<EnableResult> {
  const scope = opts.scope ?? USER_RECORDS;
  return withStoreLock(
    ctx.paths,
    async () => {
      const state = await readState(ctx.paths);
      assertProjectHasRecords(state, scope);
      const record = findInstalled(stateIn(state, scope), opts.name);
      const target = record.pending ?? record;
      // docs/reference/rules/policy.md#a13: refused before any question or write; A12: the version
      // that becomes active is judged by where it was installed from.
      const from = { registry: record.registry, registryLocation: target.registryLocation };
      requirePluginAllowed(ctx, 'enabling', record, installedRegistryOf(ctx, state, from));
      // plugins.md D15: a linked directory is read in place; only its surface needs consent (a
      // pending update is a copy in the store).
      if (record.linked !== true || record.pending !== null)
        await assertUntampered(ctx.paths, record.id, { ...target, name: record.name }, scope);
      const project = scope.kind === 'project' ? scope.root : null;
      const review = await reviewInstalledTree(record, target, ctx.paths, project);
      // registry.md D13: in a project, consent given to the same surface and tree in any scope
      // carries, with the confinement given with it (project-consent.ts).
      const elsewhere =
        scope.kind === 'project' && record.pending === null && !review.consented
          ? (carriedConsent(state, scope.key, record.id, {
              surfaceHash: record.surfaceHash,
              fingerprint: record.fingerprint,
            }) ?? null)
          : null;
      const already = record.pending === null && (review.consented || elsewhere !== null);
      const confine = confineOf(elsewhere ?? record, opts.confine);
      // policy.md#a18: an unconfined plugin is refused before any question or write.
      requireSandboxed(ctx, 'enabling', record.id, { capabilities: review.capabilities, confine });
      const sameConfine =
        canonicalJson(confine ?? null) === canonicalJson(record.consent?.confine ?? null);
      if (already && record.enabled && sameConfine)
        return resultOf(record, false, await ensureDataDir(ctx.paths, record.id));
      // Z4: confining further is a narrowing and needs no new consent; lifting or widening does.
      const lifts =
        record.consent?.confine !== undefined &&
        widensCapabilities(record.consent.confine, confine ?? null);
      if (!already || lifts) await askConsent(ctx, review, scope);
      const at = nowIso(ctx);
      const next: PluginRecord = {
        ...record,
        ...(record.pending ?? {}),
        pending: null,
        enabled: true,
      };
      // registry.md D13: enabled again, the plugin is no longer one the user keeps off.
      delete next.keptOff;
      // plugins.md D15, Q6: a pending update is a copy in the store, never a link, even beside
      // a linked directory: made active, it is held to the tamper check.
      if (record.pending !== null) delete next.linked;
      // A12: the active version's own location, none when its pending record kept none.
      if (target.registryLocation === undefined) delete next.registryLocation;
      if (next.linked === true) await relink(next, review);
      next.consent = {
        surfaceHash: next.surfaceHash,
        at,
        version: next.version,
        ...(confine === undefined ? {} : { confine }),
      };
      if (record.pending !== null) next.updatedAt = at;
      const kept = keptOptOuts(record.disabledHooks, review.hooks);
      if (kept === undefined) delete next.disabledHooks;
      else next.disabledHooks = kept;
      // docs/reference/commands.md#rollback: a pending update made active remembers the old one.
      recordsIn(state, scope)[record.id] =
        record.pending === null ? next : withPrevious(next, record);
      await writeState(ctx.paths, state);
      const dataDir = await ensureDataDir(ctx.paths, record.id);
      await collectGarbage(ctx.paths, state);
      return resultOf(next, true, dataDir);
    },
    lockOptions(ctx),
  );
}

/** Q6; files the plugin created in its folder pass unless one changes what runs (docs/design/decisions.md#plugins-and-marketplaces). */
async function assertUntampered(
  paths: StorePaths,
  id: string,
  target: Pick<PluginRecord, 'path' | 'fingerprint' | 'source' | 'version' | 'name'>,
  scope: RecordScope,
): Promise<void> {
  const status = await treeStatusOf(paths, target);
  if (status.status === 'match' || status.status === 'created') return;
  const found =
    status.status === 'missing'
      ? 'unreadable'
      : await fingerprintTree(target.path).catch(() => 'unreadable');
  const why =
    status.status === 'changed' && status.problem !== undefined
      ? status.problem
      : `they no longer match their fingerprint (expected ${target.fingerprint}, found ${found})`;
  throw new HookpmError(
    'E_PLUGIN_TAMPERED',
    `the installed files of ${id} ${target.version} at ${target.path} were changed: ${why}`,
    {
      plugin: id,
      expected: target.fingerprint,
      found,
      hint: `Restore it with ${restoreWords(target.source, scope.kind === 'project' ? scope.root : null)}.`,
    },
  );
}

/** plugins.md D15: a linked record takes its directory's surface, version and files as they are now. */
async function relink(next: PluginRecord, review: ReviewReport): Promise<void> {
  next.surfaceHash = review.surfaceHash;
  next.events = [...review.events];
  next.version = review.version;
  next.fingerprint = await fingerprintTree(next.path);
}

/** Z4: the confinement to record: the one asked for, none for `off`, else the one recorded. */
function confineOf(
  record: PluginRecord,
  asked: Capabilities | 'off' | undefined,
): Capabilities | undefined {
  if (asked === 'off') return undefined;
  return asked ?? record.consent?.confine;
}

async function askConsent(
  ctx: OperationContext,
  review: ReviewReport,
  scope: RecordScope,
): Promise<void> {
  if (consentModeOf(ctx) === 'yes') return;
  if (ctx.confirm === undefined) {
    const project = scope.kind === 'project' ? ' --project' : '';
    throw new HookpmError(
      'E_CONSENT_REQUIRED',
      `enabling ${review.id} ${review.version} needs your consent to its hooks, and no question can be asked here`,
      {
        plugin: review.id,
        hint: `Run \`hookpm review ${review.id}${project}\` to see what it runs, then \`hookpm enable ${review.id}${project} --yes\`.`,
      },
    );
  }
  if (!(await ctx.confirm(review))) {
    throw new HookpmError('E_CANCELLED', `${review.id} was not enabled: consent was declined`, {
      plugin: review.id,
    });
  }
}

function resultOf(record: PluginRecord, changed: boolean, dataDir: string): EnableResult {
  return {
    id: record.id,
    version: record.version,
    enabled: true,
    events: [...record.events],
    surfaceHash: record.surfaceHash,
    changed,
    dataDir,
  };
}
