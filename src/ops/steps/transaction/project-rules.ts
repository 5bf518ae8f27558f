import { rm } from 'node:fs/promises';
import { HookpmError } from '../../../errors.js';
import { removeDataDir } from '../../../store/data-dir.js';
import { treeStatusOf } from '../../../store/tree-status.js';
import { pluginDataDir } from '../../../store/plugin-dirs.js';
import { dataUsers, describeDataUser } from '../../../store/state/data-users.js';
import type { PluginRecord, State } from '../../../store/state/state-schema.js';
import {
  lockfilePath,
  manifestPath,
  prepareProjectFiles,
  readProjectTexts,
  type PreparedProjectFiles,
  type ProjectFiles,
} from '../../../workspace/project-files.js';
import { nowIso, type OperationContext } from '../context/operation-context.js';
import { decideConsent } from '../consent/consent.js';
import { installedFrom, requireNotRequired } from '../policy/enforce-policy.js';
import { reviewStaged } from '../review/review-staged.js';
import type { StagedPlugin } from '../staging/types.js';
import {
  draftRecords,
  type ProjectInstallScope,
  type RemovedData,
  type ScopeRules,
} from './install-scope.js';
import { enableModeFor, type CommitOptions } from './options.js';
import { assertLockedIntegrity } from './locked-integrity.js';
import { carriedConsent, consentBaseline } from './project-consent.js';
import { promoteStaged } from './promote-staged.js';
import { entryOf, keptOptOuts, recordOf, type InstalledEntry } from './record.js';

/**
 * The project scope of the transaction (README "Projects and teams"): the records are
 * `state.projects[key]`, each with the range hookpm.json asks for. Consent stays the user's: it
 * carries without a question when this user consented to the same surface and tree in any scope
 * (project-consent.ts), else it is asked (or `--yes`), and keeps the confinement of the record it
 * is reviewed against (Z4); a plugin left without it is recorded as installed and not enabled,
 * and where no question can be asked (no TTY, no --yes) the command fails with
 * E_CONSENT_REQUIRED. A plugin this user disabled in the project (registry.md D13: being enabled
 * is each user's) stays disabled, its consent carried or dropped as for an enabled one, and
 * nothing is asked for it: `enable --project` turns it on. With `exact` the project's records
 * become exactly the staged plugins; `remove` drops records (and with `removeData` the data
 * directories no record names any more); `files` are re-checked under the lock, prepared before
 * the state is written and put in place right after it.
 */
export function projectRules(
  ctx: OperationContext,
  scope: ProjectInstallScope,
  opts: CommitOptions,
): ScopeRules {
  let prepared: PreparedProjectFiles | undefined;
  // The plugins left disabled because this user disabled them: no consent is missing for them.
  const keptOff = new Set<string>();
  return {
    open(draft, staged) {
      // V3 again under the lock (J1): another command may have installed a version meanwhile.
      for (const { source, integrity } of staged)
        if (source.kind === 'registry') assertLockedIntegrity(draft, { ...source, integrity });
      const plugins = draftRecords(draft, scope);
      const keep = new Set(staged.map((s) => s.inspected.id));
      const dropped = [
        ...(scope.exact ? Object.keys(plugins).filter((id) => !keep.has(id)) : []),
        ...(scope.remove ?? []),
      ];
      // docs/reference/rules/policy.md#a14: a required plugin is not uninstalled from the project,
      // by `ci` or `install` any more than by `uninstall --project`; refused before any write.
      for (const id of dropped)
        if (Object.hasOwn(plugins, id)) requireNotRequired(ctx, 'uninstalling', plugins[id]!);
      for (const id of dropped) delete plugins[id];
    },
    commitOne: (draft, staged) => commitOne(ctx, draft, scope, opts, staged, keptOff),
    close(draft) {
      if (Object.keys(draftRecords(draft, scope)).length === 0) delete draft.projects![scope.key];
      if (Object.keys(draft.projects!).length === 0) delete draft.projects;
      if (scope.files !== undefined) {
        assertUnchanged(scope.files.read);
        // J2: a file leading outside the project is refused before the state is written, and so
        // is one whose new bytes cannot be written (a full disk, a read-only directory).
        prepared = prepareProjectFiles(scope.files.read, scope.files.next);
      }
    },
    written() {
      if (prepared === undefined) return [];
      prepared.publish();
      return prepared.files;
    },
    removesData: scope.removeData === true ? [...(scope.remove ?? [])] : [],
    abandon: () => prepared?.discard(),
    async finish(draft) {
      const data: RemovedData[] = [];
      for (const id of scope.remove ?? []) {
        const keptFor = dataUsers(draft, id).map(describeDataUser);
        const remove = scope.removeData === true && keptFor.length === 0;
        if (remove) await removeDataDir(ctx.paths, id);
        data.push({ id, removed: remove ? pluginDataDir(ctx.paths, id) : null, keptFor });
      }
      return data;
    },
    consentRequired(entries) {
      if (ctx.confirm !== undefined) return null;
      const waiting = entries.filter(
        (e) => !e.active && !keptOff.has(e.id) && enableModeFor(opts, e.id) === 'ask',
      );
      return waiting.length === 0 ? null : consentRequired(waiting.map((e) => e.id));
    },
  };
}

/** The project files still hold the bytes the command read (E_PROJECT_FILE otherwise). */
function assertUnchanged(read: ProjectFiles): void {
  const now = readProjectTexts(read.root);
  const changed = [
    now.manifestText === read.manifestText ? null : manifestPath(read.root),
    now.lockText === read.lockText ? null : lockfilePath(read.root),
  ].filter((file): file is string => file !== null);
  if (changed.length === 0) return;
  throw new HookpmError(
    'E_PROJECT_FILE',
    `${changed.join(' and ')} changed while this command ran (another hookpm, or an editor); nothing was changed`,
    { file: changed[0], hint: 'Run the command again.' },
  );
}

/**
 * The installed tree of `record` still holds the files it was installed with (plugins.md Q6; files
 * the plugin created since are allowed): else `ci` and `install` install the locked bytes again, as
 * they are how a project's changed or deleted tree is restored (`install --force` is user-wide).
 */
async function treeIntact(ctx: OperationContext, record: PluginRecord): Promise<boolean> {
  const { status } = await treeStatusOf(ctx.paths, record);
  return status === 'match' || status === 'created';
}

async function commitOne(
  ctx: OperationContext,
  draft: State,
  scope: ProjectInstallScope,
  opts: CommitOptions,
  staged: StagedPlugin,
  keptOff: Set<string>,
): Promise<InstalledEntry> {
  const { id, version } = staged.inspected;
  const plugins = draftRecords(draft, scope);
  const existing = Object.hasOwn(plugins, id) ? plugins[id] : undefined;
  const range = scope.ranges[id] ?? staged.source.range;
  // D13: `disable --project` keeps the consent, or marks the record keptOff once a wider version
  // dropped it; a record with neither was never enabled here.
  const disabledByUser =
    existing !== undefined &&
    !existing.enabled &&
    (existing.consent !== null || existing.keptOff === true);
  if (disabledByUser) keptOff.add(id);
  if (
    existing !== undefined &&
    existing.version === version &&
    existing.fingerprint === staged.fingerprint &&
    existing.integrity === staged.integrity &&
    (existing.enabled || disabledByUser) &&
    (await treeIntact(ctx, existing))
  ) {
    await rm(staged.dir, { recursive: true, force: true });
    plugins[id] = { ...existing, range };
    return entryOf(plugins[id], 'unchanged');
  }
  const path = await promoteStaged(ctx, staged);
  const record: PluginRecord = {
    ...recordOf(
      staged,
      path,
      nowIso(ctx),
      existing?.installedAt,
      installedFrom(ctx, draft, staged.source.registry),
    ),
    range,
  };
  const tree = { surfaceHash: record.surfaceHash, fingerprint: record.fingerprint };
  const baseline = consentBaseline(draft, scope.key, id);
  const carried = carriedConsent(draft, scope.key, id, tree);
  let granted = carried !== undefined;
  if (!granted) {
    const review = await reviewStaged(staged, baseline, ctx.paths, path);
    const mode = disabledByUser ? 'no' : enableModeFor(opts, id);
    granted = (await decideConsent(review, baseline, mode, ctx.confirm)) !== 'none';
  }
  if (granted) {
    // Z4: the user's own confinement (`enable --confine`) stays with the consent, as user-wide:
    // that of the consent that carried, else of the record the plugin was reviewed against.
    const confine = (carried ?? baseline)?.consent?.confine;
    record.consent = {
      surfaceHash: record.surfaceHash,
      at: nowIso(ctx),
      version,
      ...(confine === undefined ? {} : { confine }),
    };
    record.enabled = !disabledByUser;
  } else if (disabledByUser) record.keptOff = true;
  // D13: each install keeps its own opt-outs; those naming no hook of this version lapse.
  const kept = keptOptOuts(existing?.disabledHooks, staged.inspected.surface.entries);
  if (kept !== undefined) record.disabledHooks = kept;
  plugins[id] = record;
  return entryOf(record, 'installed');
}

function consentRequired(ids: readonly string[]): HookpmError {
  return new HookpmError(
    'E_CONSENT_REQUIRED',
    `${ids.join(', ')}: installed for this project but not enabled: you have not consented to what ${ids.length === 1 ? 'it runs' : 'they run'} (a project can name plugins, never consent for you)`,
    {
      plugins: [...ids],
      hint: 'Run `hookpm install` in the project on a terminal to review and consent, or `hookpm ci --yes` to consent to the locked plugins.',
    },
  );
}
