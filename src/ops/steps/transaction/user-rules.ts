import { rm } from 'node:fs/promises';
import { HookpmError } from '../../../errors.js';
import type { State } from '../../../store/state/state-schema.js';
import { nowIso, type OperationContext } from '../context/operation-context.js';
import { decideConsent, type EnableMode } from '../consent/consent.js';
import { reviewStaged } from '../review/review-staged.js';
import { assertStagedIntegrity } from '../staging/pick.js';
import { installedFrom } from '../policy/enforce-policy.js';
import type { StagedPlugin } from '../staging/types.js';
import type { ScopeRules } from './install-scope.js';
import type { CommitOptions } from './options.js';
import { promoteStaged } from './promote-staged.js';
import {
  applyConsent,
  entryOf,
  keptOptOuts,
  pendingOf,
  recordOf,
  withPrevious,
  type InstalledEntry,
} from './record.js';

/**
 * The user scope of the transaction (`install`, `update`): the records are `state.plugins`; V3 is
 * checked again under the lock; a plugin with the same files is kept (unless `force`); an update
 * that changes what runs beyond the consent given waits as pending (Q5) beside the consented
 * version, which stays active.
 */
export function userRules(ctx: OperationContext, opts: CommitOptions): ScopeRules {
  // Plugins not installed before this transaction: left disabled without consent, they fail it.
  const firstInstalls = new Set<string>();
  return {
    open(draft, staged) {
      for (const { inspected } of staged)
        if (draft.plugins[inspected.id] === undefined) firstInstalls.add(inspected.id);
      // V3 again under the lock: another command may have installed the version meanwhile.
      if (opts.acceptIntegrityChange !== true)
        for (const plugin of staged) assertStagedIntegrity(draft, plugin);
    },
    commitOne: (draft, staged, notes) => installOne(ctx, draft, staged, opts, notes),
    close() {},
    removesData: [],
    written: () => [],
    abandon() {},
    finish: async () => [],
    consentRequired(entries, notes) {
      if (opts.enable !== 'ask' || ctx.confirm !== undefined) return null;
      const waiting = entries.filter((e) => e.status === 'pending');
      if (waiting.length > 0) return consentRequired(waiting, notes);
      const inactive = entries.filter(
        (e) => e.status === 'installed' && !e.enabled && firstInstalls.has(e.id),
      );
      return inactive.length > 0 ? notEnabled(inactive, notes) : null;
    },
  };
}

/**
 * Q5: in non-interactive use without --yes, a widened update (or one that changes code files,
 * README "The consent model") is installed as pending and the command says so by failing with
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
      notes,
      hint: `Run \`hookpm review ${first}\` to see what it runs, then \`hookpm enable ${first} --yes\` (or install with --yes).`,
    },
  );
}

async function installOne(
  ctx: OperationContext,
  draft: State,
  staged: StagedPlugin,
  opts: CommitOptions,
  notes: string[],
): Promise<InstalledEntry> {
  const { id, version } = staged.inspected;
  const existing = draft.plugins[id];
  if (
    existing !== undefined &&
    opts.force !== true &&
    existing.version === version &&
    existing.fingerprint === staged.fingerprint &&
    existing.integrity === staged.integrity
  ) {
    await rm(staged.dir, { recursive: true, force: true });
    // The range or tag asked for now is what `update` stays within from here on (as npm saves the
    // spec of an install that changes no version), e.g. `install guard@~1.2.0` to stop following
    // ^1.
    const asked =
      existing.range === staged.source.range
        ? existing
        : { ...existing, range: staged.source.range };
    draft.plugins[id] = asked;
    if (opts.enable === 'yes' && opts.preserveDisabled !== true && !existing.enabled) {
      // `install X --yes` of a disabled X enables it (--yes is consent to these files).
      const enabled = {
        ...asked,
        enabled: true,
        consent: {
          surfaceHash: existing.surfaceHash,
          at: nowIso(ctx),
          version,
          ...(existing.consent?.confine === undefined ? {} : { confine: existing.consent.confine }),
        },
      };
      draft.plugins[id] = enabled;
      notes.push(`${id} ${version} was already installed, but disabled; --yes enabled it`);
      return entryOf(enabled, 'unchanged');
    }
    notes.push(`${id} ${version} is already installed with the same files; --force reinstalls it`);
    return entryOf(asked, 'unchanged');
  }
  const path = await promoteStaged(ctx, staged);
  const review = await reviewStaged(staged, existing, ctx.paths, path);
  // An update leaves a disabled plugin disabled: it is neither asked about nor enabled by --yes.
  const mode: EnableMode =
    opts.preserveDisabled === true && existing !== undefined && !existing.enabled
      ? 'no'
      : opts.enable;
  const decision = await decideConsent(review, existing, mode, ctx.confirm);
  const from = installedFrom(ctx, draft, staged.source.registry);
  const record = recordOf(staged, path, nowIso(ctx), existing?.installedAt, from);
  if (decision === 'none' && existing?.consent != null) {
    // Q5: a widened surface, or changed code, waits for consent; the consented version stays
    // active.
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
  draft.plugins[id] = withPrevious(record, existing);
  // Where no question could be asked, notEnabled (E_CONSENT_REQUIRED) says it instead.
  const failsForConsent = opts.enable === 'ask' && ctx.confirm === undefined;
  if (!record.enabled && existing === undefined && !failsForConsent)
    notes.push(
      `${id} is installed but not enabled; run \`hookpm enable ${id}\` to review and enable it`,
    );
  return entryOf(draft.plugins[id], 'installed');
}
