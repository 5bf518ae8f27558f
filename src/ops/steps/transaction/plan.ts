import { rm } from 'node:fs/promises';
import type { PluginRecord, State } from '../../../store/state/state-schema.js';
import {
  entryOf,
  recordOf,
  type InstalledEntry,
  type InstallPlan,
  type InstallResult,
} from './record.js';
import { enableModeFor, type CommitOptions, type InstallOptions } from './options.js';
import type { InstallSource, StagedPlugin } from '../staging/types.js';
import { nowIso, type OperationContext } from '../context/operation-context.js';
import { consentCarries } from '../consent/consent.js';
import { reviewStaged } from '../review/review-staged.js';
import { stageAll, stagedNotes } from '../staging/stage-all.js';
import { assertStagedIntegrity } from '../staging/pick.js';
import type { ProjectInstallScope } from './install-scope.js';
import { consentBaseline, consentedAnywhere } from './project-consent.js';

/**
 * `--dry-run`: stages each plugin as a real install would (downloads verified and cached, archives
 * scanned and extracted, plugins validated: the same errors), then reports the plan of the user
 * scope (planTransaction). The state and every installed tree are left as they are; only the
 * download cache (D5) may gain files.
 */
export async function planInstall(
  ctx: OperationContext,
  sources: readonly InstallSource[],
  opts: Pick<InstallOptions, 'enable' | 'force' | 'cwd' | 'acceptIntegrityChange'> & {
    state: State;
  },
): Promise<InstallResult> {
  const staged = await stageAll(sources, {
    ctx,
    cwd: opts.cwd,
    acceptIntegrityChange: opts.acceptIntegrityChange === true,
  });
  // V3 as the commit checks it (user-rules.ts): an npm plugin's id is known only once staged.
  if (opts.acceptIntegrityChange !== true) {
    try {
      for (const plugin of staged) assertStagedIntegrity(opts.state, plugin);
    } catch (error) {
      await Promise.all(staged.map((p) => rm(p.dir, { recursive: true, force: true })));
      throw error;
    }
  }
  return {
    installed: await planTransaction(ctx, staged, { kind: 'user' }, opts),
    dryRun: true,
    notes: [...stagedNotes(staged), 'dry run: nothing was changed'],
  };
}

/**
 * The plan of committing `staged` into `scope` against `state` (steps 5-7 not taken): per plugin
 * the versions, the Q5 surface diff, whether consent carries over, the files - and the staging
 * trees removed. The user scope compares with the user's record of the same id; a project scope
 * with the project's own record, reviewed against the consent its commit would use
 * (project-consent.ts: consent given in any scope carries).
 */
export async function planTransaction(
  ctx: OperationContext,
  staged: readonly StagedPlugin[],
  scope: { kind: 'user' } | Pick<ProjectInstallScope, 'kind' | 'key'>,
  opts: Pick<CommitOptions, 'enable' | 'yesFor'> & { force?: boolean; state: State },
): Promise<InstalledEntry[]> {
  const { state } = opts;
  const own = scope.kind === 'user' ? state.plugins : (state.projects?.[scope.key]?.plugins ?? {});
  const installed: InstalledEntry[] = [];
  try {
    for (const plugin of staged) {
      const id = plugin.inspected.id;
      const existing = Object.hasOwn(own, id) ? own[id] : undefined;
      const tree = {
        surfaceHash: plugin.inspected.surface.surfaceHash,
        fingerprint: plugin.fingerprint,
      };
      installed.push(
        await planStaged(ctx, plugin, {
          enable: enableModeFor(opts, id),
          force: opts.force === true,
          existing,
          ...(scope.kind === 'user'
            ? { baseline: existing }
            : {
                baseline: consentBaseline(state, scope.key, id),
                carried: consentedAnywhere(state, id, tree),
              }),
        }),
      );
    }
  } finally {
    await Promise.all(staged.map((s) => rm(s.dir, { recursive: true, force: true })));
  }
  return installed;
}

/**
 * The plan of one staged plugin against `existing`, the record it would replace, and `baseline`,
 * the record whose consent it is reviewed against (Q5; the same record for a user-wide install, a
 * project's own or the user's for a project install); `carried`: consent the caller knows carries.
 */
async function planStaged(
  ctx: OperationContext,
  staged: StagedPlugin,
  opts: Pick<InstallOptions, 'enable' | 'force'> & {
    existing: PluginRecord | undefined;
    baseline: PluginRecord | undefined;
    carried?: boolean;
  },
): Promise<InstalledEntry> {
  const { existing, baseline } = opts;
  const same =
    existing !== undefined &&
    !opts.force &&
    existing.version === staged.inspected.version &&
    existing.fingerprint === staged.fingerprint;
  const review = await reviewStaged(staged, baseline, ctx.paths);
  const carries = opts.carried === true || consentCarries(review, baseline);
  const wantsEnabled = opts.enable === 'yes' || (existing?.enabled ?? false);
  const plan: InstallPlan = {
    from: existing?.version ?? null,
    to: staged.inspected.version,
    diff: review.diff,
    consent: carries ? 'carries' : wantsEnabled || baseline?.consent != null ? 'required' : 'none',
    files: review.files.map((file) => file.path),
    review,
  };
  if (same) return { ...entryOf(existing, 'would-keep'), plan };
  const record = recordOf(staged, '', nowIso(ctx));
  record.enabled = wantsEnabled;
  return { ...entryOf(record, 'would-install'), path: null, plan };
}
