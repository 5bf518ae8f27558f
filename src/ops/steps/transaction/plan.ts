import { rm } from 'node:fs/promises';
import type { PluginRecord, State } from '../../../store/state/state-schema.js';
import {
  entryOf,
  recordOf,
  type InstalledEntry,
  type InstallPlan,
  type InstallResult,
} from './record.js';
import type { InstallOptions } from './options.js';
import type { InstallSource, StagedPlugin } from '../staging/types.js';
import { nowIso, type OperationContext } from '../context/operation-context.js';
import { consentCarries } from '../consent/consent.js';
import { reviewStaged } from '../review/review-staged.js';
import { stageAll } from '../staging/stage-all.js';

/**
 * `--dry-run`: stages each plugin as a real install would (downloads verified and cached, archives
 * scanned and extracted, plugins validated: the same errors), reports the plan - versions, the Q5
 * surface diff, whether consent carries over, the files - and removes the staging trees. The state
 * and every installed tree are left as they are; only the download cache (D5) may gain files.
 */
export async function planInstall(
  ctx: OperationContext,
  sources: readonly InstallSource[],
  opts: Pick<InstallOptions, 'enable' | 'force' | 'cwd' | 'acceptIntegrityChange'> & {
    state: State;
  },
): Promise<InstallResult> {
  const result: InstallResult = {
    installed: [],
    dryRun: true,
    notes: ['dry run: nothing was changed'],
  };
  const staged = await stageAll(sources, {
    ctx,
    cwd: opts.cwd,
    acceptIntegrityChange: opts.acceptIntegrityChange === true,
  });
  try {
    for (const plugin of staged) result.installed.push(await planOne(ctx, plugin, opts));
  } finally {
    await Promise.all(staged.map((s) => rm(s.dir, { recursive: true, force: true })));
  }
  return result;
}

async function planOne(
  ctx: OperationContext,
  staged: StagedPlugin,
  opts: Pick<InstallOptions, 'enable' | 'force'> & { state: State },
): Promise<InstalledEntry> {
  const existing = opts.state.plugins[staged.inspected.id];
  return planStaged(ctx, staged, { existing, baseline: existing, ...opts });
}

/**
 * The plan of one staged plugin against `existing`, the record it would replace, and `baseline`,
 * the record whose consent it is reviewed against (Q5; the same record for a user-wide install, a
 * project's own or the user's for a project install); `carried`: consent the caller knows carries.
 */
export async function planStaged(
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
