import semver from '../../registry/versions/semver.js';
import { HookpmError, isHookpmError } from '../../errors.js';
import { compareCodeUnits } from '../../json/compare.js';
import { LOCAL_REGISTRY } from '../../registry/registry-name.js';
import {
  newestInRange,
  picked,
  type UpdateRequest,
} from '../../registry/versions/resolve-version.js';
import { assertStoreWritable } from '../../store/check-writable.js';
import { readState } from '../../store/state/state.js';
import type { PluginRecord, State } from '../../store/state/state-schema.js';
import type { EnableMode } from '../steps/consent/consent.js';
import { planInstall } from '../steps/transaction/plan.js';
import type { InstallSource } from '../steps/staging/types.js';
import { installResultOf, stageAndCommit } from '../steps/transaction/transaction.js';
import type { InstallResult } from '../steps/transaction/record.js';
import { findInstalled } from '../steps/installed/installed.js';
import { loadCatalogs, type LoadedCatalogs } from '../steps/catalogs/load-catalogs.js';
import type { OperationContext } from '../steps/context/operation-context.js';
import type { Catalog } from '../steps/catalogs/catalog-types.js';
import { assertRecordIntegrity, deprecatedNote, errorOf, sourceOf } from '../steps/staging/pick.js';
import { cachedIndexesNote } from '../../registry/network-refused.js';
import { planMarketplaceUpdate } from './update-marketplace.js';
import { ownValue } from '../../json/own-value.js';
import { clip } from '../../text/clip.js';
import { heldNote, holdBackYoung, type ReleaseAge } from '../../registry/versions/release-age.js';
import { releaseAgeOf } from '../steps/policy/release-age-of.js';
import { npmReinstallCommand } from './npm-reinstall.js';
import {
  policyRefusalOf,
  policyRegistryOf,
  requirePluginAllowed,
  requireUsablePolicy,
} from '../steps/policy/enforce-policy.js';

export interface UpdateOptions {
  /** Names or ids; empty: every installed plugin. */
  names: readonly string[];
  cwd: string;
  /** `yes` (--yes) approves widened surfaces; `ask` asks through ctx.confirm, or leaves them pending. */
  enable: Exclude<EnableMode, 'no'>;
  dryRun: boolean;
  allowDowngrade: boolean;
  includePrerelease: boolean;
}

/** A plugin `update` did not move, and why. */
export interface UpdateSkip {
  id: string;
  version: string;
  /** `current`: newest in range; `local`/`npm`: not updatable from an index; `backwards`: the index moved backwards (not followed); `gone`: the registry no longer lists it, is no longer added, or (a plain `update`) serves no version of the tag or range it follows; `policy`: a plain `update` passes over a plugin the administrator's policy refuses (A13). */
  reason: 'current' | 'local' | 'npm' | 'backwards' | 'gone' | 'policy';
  message: string;
}

export interface UpdateResult extends InstallResult {
  skipped: UpdateSkip[];
}

/**
 * `hookpm update [name...]` (docs/reference/rules/cli.md#commands; plugins.md Q5; registry.md V2,
 * V3): for each installed registry plugin, the newest version in its recorded range (a dist-tag it
 * follows, or its range), never lower than the installed one unless `allowDowngrade`: an index that
 * moved backwards is reported in `skipped`, not followed. The moves are installed in one
 * transaction (stageAndCommit, into the user's records): a surface with only removals keeps its
 * consent; an added or changed entry installs the new version as pending while the consented one
 * stays active
 * - approved with --yes or the prompt, else E_CONSENT_REQUIRED (with the state already
 * consistent). A disabled plugin stays disabled. A registry that cannot be read, or a changed
 * integrity (E_INTEGRITY_CHANGED), fails the command before anything changes.
 */
export async function updatePlugins(
  ctx: OperationContext,
  opts: UpdateOptions,
): Promise<UpdateResult> {
  if (!opts.dryRun) await assertStoreWritable(ctx.paths);
  // policy.md A20: any update while the policy file cannot be used is refused (A11), even one
  // that would move nothing.
  requireUsablePolicy(ctx, 'updating');
  const state = await readState(ctx.paths);
  const records =
    opts.names.length === 0
      ? Object.values(state.plugins).sort((a, b) => compareCodeUnits(a.id, b.id))
      : unique(opts.names.map((name) => findUpdated(state, name)));
  const skipped: UpdateSkip[] = [];
  const allowed =
    opts.names.length === 0
      ? skipRefused(ctx, state, records, skipped)
      : requireAllowed(ctx, state, records);
  const fromIndex = allowed.filter((r) => {
    if (r.registry !== LOCAL_REGISTRY && r.registry !== 'npm') return true;
    skipped.push(skip(r, r.registry, notFromIndex(r)));
    return false;
  });
  const needed = new Set(fromIndex.map((r) => r.registry));
  const loaded =
    needed.size === 0
      ? null
      : await loadCatalogs(ctx, {
          only: (n) => needed.has(n),
          refresh: true,
          plugins: fromIndex.map((r) => r.name),
        });
  const notes =
    loaded !== null && loaded.cacheOnly.length > 0 ? [cachedIndexesNote(loaded.cacheOnly)] : [];
  const planned: Planned[] = [];
  const age = releaseAgeOf(ctx);
  for (const record of fromIndex) {
    const source = planOne(record, loaded as LoadedCatalogs<Catalog>, opts, skipped, notes, age);
    if (source !== null) planned.push({ record, source });
  }
  const sources = planned.map((p) => p.source);
  const transaction = {
    cwd: opts.cwd,
    enable: opts.enable,
    force: false,
    preserveDisabled: true,
  };
  const result =
    sources.length === 0
      ? { installed: [], dryRun: opts.dryRun, notes: [] }
      : opts.dryRun
        ? await planInstall(ctx, sources, { ...transaction, state })
        : await commitPassingOver(planned, opts.names.length === 0 ? skipped : null, (list) =>
            stageAndCommit(ctx, list, { kind: 'user' }, transaction, notes),
          );
  return { ...result, notes: [...notes, ...result.notes], skipped };
}

/** A plugin `update` moves, and where to. */
interface Planned {
  record: PluginRecord;
  source: InstallSource;
}

/**
 * Commits the moves of `planned`. A plain `update` (`skipped` given) passes over a plugin whose
 * new version the policy refuses once it is staged (A18: it would run unconfined), as over a
 * refused installed plugin (policy.md A20): it is recorded in `skipped` and the others are
 * committed again without it. A failed commit changes nothing, so committing again is safe.
 */
async function commitPassingOver(
  planned: readonly Planned[],
  skipped: UpdateSkip[] | null,
  commit: (sources: InstallSource[]) => ReturnType<typeof stageAndCommit>,
): Promise<ReturnType<typeof installResultOf>> {
  let left = [...planned];
  for (;;) {
    try {
      return installResultOf(await commit(left.map((p) => p.source)));
    } catch (error) {
      const id = isHookpmError(error, 'E_POLICY') ? error.details['plugin'] : undefined;
      const refused = left.find((p) => p.record.id === id);
      if (skipped === null || refused === undefined || !isHookpmError(error)) throw error;
      const file = String(error.details['file'] ?? '');
      const rule = String(error.details['rule'] ?? '');
      skipped.push(
        skip(
          refused.record,
          'policy',
          `${refused.record.id} was not updated: the administrator's policy ${file} refuses its new version (${rule})`,
        ),
      );
      left = left.filter((p) => p !== refused);
      if (left.length === 0) return { installed: [], dryRun: false, notes: [] };
    }
  }
}

/** The source to move `record` to, or null (and a skip) when it stays. */
function planOne(
  record: PluginRecord,
  loaded: LoadedCatalogs<Catalog>,
  opts: UpdateOptions,
  skipped: UpdateSkip[],
  notes: string[],
  age: ReleaseAge | null,
): InstallSource | null {
  const failed = loaded.warnings.find((w) => w.registry === record.registry);
  if (failed !== undefined) throw errorOf(failed);
  const entry = loaded.entries.find((e) => e.name === record.registry);
  if (entry === undefined) {
    // `registry remove` keeps the plugins installed from it; they are updatable again once added.
    skipped.push(
      skip(
        record,
        'gone',
        `${record.id}: the registry ${record.registry} it was installed from is no longer added; \`hookpm registry add ${record.registry} <url>\` makes it updatable again`,
      ),
    );
    return null;
  }
  const catalog = loaded.catalogs.find((c) => c.registry === record.registry);
  const plugin = catalog === undefined ? undefined : ownValue(catalog.index.plugins, record.name);
  if (catalog === undefined || plugin === undefined) {
    skipped.push(
      skip(
        record,
        'gone',
        `${record.id}: the registry ${record.registry} no longer lists ${record.name}`,
      ),
    );
    return null;
  }
  if (catalog.kind === 'marketplace') {
    const planned = planMarketplaceUpdate(record, catalog, entry, opts.allowDowngrade);
    if (planned.kind === 'marketplace') return planned;
    skipped.push(skip(record, planned.reason, planned.message));
    return null;
  }
  // docs/reference/rules/policy.md#a15: versions younger than the cooldown are not offered.
  const gated = age === null ? { plugin, held: [] } : holdBackYoung(plugin, age, record.version);
  const candidate = { registry: record.registry, plugin: gated.plugin };
  const tell = (below: string): void => {
    for (const h of gated.held)
      if (age !== null && semver.gt(h.version, below)) notes.push(heldNote(record.id, h, age));
  };
  const request: UpdateRequest = {
    name: record.name,
    installed: record.version,
    includePrerelease: opts.includePrerelease,
    allowDowngrade: opts.allowDowngrade,
  };
  if (record.range === '' || semver.validRange(record.range) !== null)
    request.range = record.range || '*';
  else request.tag = record.range;
  let plan;
  try {
    plan = newestInRange(candidate, request);
  } catch (error) {
    // A plain `update` passes over a plugin whose tag or range the index no longer serves (the
    // tag removed), as over one whose registry no longer lists it; `update <name>` fails (V2).
    if (isHookpmError(error, 'E_NO_MATCHING_VERSION') && opts.names.length === 0) {
      skipped.push(skip(record, 'gone', `${error.message}; ${followOther(record)}`));
      return null;
    }
    if (!isHookpmError(error, 'E_DOWNGRADE')) throw error;
    skipped.push(skip(record, 'backwards', error.message));
    return null;
  }
  tell(plan.version);
  if (plan.change === 'none') {
    skipped.push(
      skip(
        record,
        'current',
        `${record.id} ${record.version} is the newest version in ${clip(record.range || '*')}`,
      ),
    );
    return null;
  }
  const chosen = picked(candidate, record.name, plan.version);
  assertRecordIntegrity(record, chosen);
  if (chosen.deprecated !== undefined)
    notes.push(deprecatedNote(record.id, chosen.version, chosen.deprecated));
  return sourceOf(
    `${record.name}@${record.registry}@${plan.version}`,
    chosen,
    catalog,
    record.range,
  );
}

/**
 * The installed plugin `name` (a name or id) names, as findInstalled finds it. A name followed by
 * a range or dist-tag (`guard@^2`, `guard@acme@2.0.0`, as `pnpm update` takes) is E_USAGE saying
 * that `install` is what moves a plugin to another range, rather than "not installed".
 */
function findUpdated(state: State, name: string): PluginRecord {
  try {
    return findInstalled(state, name);
  } catch (error) {
    const at = name.lastIndexOf('@');
    if (!isHookpmError(error, 'E_NOT_INSTALLED') || at <= 0) throw error;
    let record: PluginRecord;
    try {
      record = findInstalled(state, name.slice(0, at));
    } catch {
      throw error;
    }
    const wanted = name.slice(at + 1);
    throw new HookpmError(
      'E_USAGE',
      `update takes plugin names or ids, not ${JSON.stringify(clip(name))}: it stays within the range ${record.id} was installed with (${clip(record.range || '*')})`,
      {
        name,
        hint: `To follow another range or tag, install it: \`hookpm install ${clip(`${record.id}@${wanted}`)}\`.`,
      },
    );
  }
}

/**
 * docs/reference/rules/policy.md#a20: a plain `update` (no names) passes over each plugin the
 * policy refuses, recording it in `skipped` with the rule and the file, and updates the others.
 * `update <name>` of one stays E_POLICY (the transaction refuses it), and so does any update while
 * the policy file cannot be used (A11).
 */
function skipRefused(
  ctx: OperationContext,
  state: State,
  records: readonly PluginRecord[],
  skipped: UpdateSkip[],
): PluginRecord[] {
  return records.filter((record) => {
    const refused = policyRefusalOf(ctx, state, record);
    if (refused === null) return true;
    skipped.push(
      skip(
        record,
        'policy',
        `${record.id} was not updated: the administrator's policy ${refused.file} refuses it (${refused.rule})`,
      ),
    );
    return false;
  });
}

/**
 * docs/reference/rules/policy.md#a20: `update <name>` of a plugin the policy refuses is E_POLICY
 * (A16), before its registry is read and whether or not a newer version exists; the registry is
 * judged by its location of now, where the new version would come from.
 */
function requireAllowed(
  ctx: OperationContext,
  state: State,
  records: readonly PluginRecord[],
): readonly PluginRecord[] {
  for (const record of records)
    requirePluginAllowed(ctx, 'updating', record, policyRegistryOf(ctx, state, record.registry));
  return records;
}

/**
 * Why `record` (of `local` or `npm`) is not updated from an index, and what does it. A linked
 * directory (plugins.md D15) runs as it is edited: installing it again would replace the link.
 */
function notFromIndex(record: PluginRecord): string {
  if (record.registry === 'npm')
    return `${record.id}: updating npm plugins is not supported yet; run \`${npmReinstallCommand(record)}\``;
  if (record.linked === true)
    return `${record.id} is linked to ${record.source}, which runs as it is edited: there is nothing to update; \`hookpm enable ${record.id}\` reviews a change of its hooks`;
  return `${record.id} was installed from ${record.source}; install it again from there to update it`;
}

/** What makes `record` updatable again when its registry serves nothing it follows. */
function followOther(record: PluginRecord): string {
  return `\`hookpm install ${record.name}@${record.registry}@<range or tag>\` follows another`;
}

function skip(record: PluginRecord, reason: UpdateSkip['reason'], message: string): UpdateSkip {
  return { id: record.id, version: record.version, reason, message };
}

function unique(records: PluginRecord[]): PluginRecord[] {
  return [...new Map(records.map((r) => [r.id, r])).values()];
}
