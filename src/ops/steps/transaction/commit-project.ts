import { rm } from 'node:fs/promises';
import { HookpmError } from '../../../errors.js';
import { commitLocked } from './commit-locked.js';
import { collectGarbage } from '../../../store/collect.js';
import { ensureDataDir, removeDataDir } from '../../../store/data-dir.js';
import { listTree } from '../../../store/fingerprint.js';
import { writeInstalledFiles } from '../../../store/installed-files.js';
import { installDir, promoteTree } from '../../../store/layout.js';
import { pluginDataDir } from '../../../store/plugin-dirs.js';
import { dataUsers, describeDataUser } from '../../../store/state/data-users.js';
import { rememberIntegrity } from '../../../store/state/known-integrity.js';
import { readState, writeState } from '../../../store/state/state.js';
import type { PluginRecord, State } from '../../../store/state/state-schema.js';
import type { Lockfile } from '../../../project/lockfile.js';
import type { ProjectManifest } from '../../../project/project-manifest.js';
import {
  lockfilePath,
  manifestPath,
  readProjectTexts,
  writeProjectFiles,
  type ProjectFiles,
} from '../../../workspace/project-files.js';
import { entryOf, recordOf, type InstalledEntry } from './record.js';
import type { StagedPlugin } from '../staging/types.js';
import { nowIso, type OperationContext } from '../context/operation-context.js';
import { decideConsent, type EnableMode } from '../consent/consent.js';
import { reviewStaged } from '../review/review-staged.js';
import { consentBaseline, consentedAnywhere } from './project-consent.js';

export interface ProjectCommitOptions {
  /** The project's canonical root (state.projects key). */
  key: string;
  enable: EnableMode;
  /** The range hookpm.json asks for, per id (the records' `range`). */
  ranges: Readonly<Record<string, string>>;
  /** `ci` and `install` without specs: the project's records become exactly the staged plugins. */
  exact: boolean;
  /** Ids whose project records are removed (uninstall --project). */
  remove?: readonly string[];
  /**
   * With `remove`: delete the data directory of each removed id that no record (user-wide or of
   * any project) names any more (plugins.md V3; the directory is one per id). False: keep them all.
   */
  removeData?: boolean;
  /**
   * The project files as the command read them and what to write: checked under the lock before
   * the state is written (another command that changed them meanwhile makes this one fail with
   * E_PROJECT_FILE, having changed nothing), written right after the state, still under the lock.
   */
  files?: { read: ProjectFiles; next: { manifest?: ProjectManifest; lock: Lockfile } };
}

/** What a project commit did: the entries, and the project files it wrote. */
export interface ProjectCommit {
  entries: InstalledEntry[];
  wrote: string[];
  /** Per id of `remove`: its data directory if deleted (null: kept), and who still uses it. */
  data: RemovedData[];
}

/** What became of a removed plugin's data directory. */
export interface RemovedData {
  id: string;
  /** The data directory deleted; null when kept (`keptFor`, or removeData false). */
  removed: string | null;
  keptFor: string[];
}

/**
 * Steps 5-7 of the install transaction for a project (issue 16): under the store lock, each staged
 * tree is promoted into the shared store, consent is decided (item 4: carried without a question
 * when this user consented to the same surface and tree anywhere; else asked, or `--yes`), and the
 * project's records are written in one durable state write; trees no record names are collected.
 * Any failure leaves the state and every installed tree as they were. Staging trees not promoted
 * are removed. A plugin left without consent where no question can be asked (no TTY, no --yes)
 * is recorded as installed and not enabled, and the command fails with E_CONSENT_REQUIRED.
 */
export async function commitProject(
  ctx: OperationContext,
  staged: readonly StagedPlugin[],
  opts: ProjectCommitOptions,
): Promise<ProjectCommit> {
  return commitLocked(ctx, staged, () => commit(ctx, staged, opts));
}

async function commit(
  ctx: OperationContext,
  staged: readonly StagedPlugin[],
  opts: ProjectCommitOptions,
): Promise<ProjectCommit> {
  const before = await readState(ctx.paths);
  const draft = structuredClone(before);
  draft.projects ??= {};
  const project = (draft.projects[opts.key] ??= { plugins: {} });
  const entries: InstalledEntry[] = [];
  try {
    if (opts.exact) {
      const keep = new Set(staged.map((s) => s.inspected.id));
      for (const id of Object.keys(project.plugins)) if (!keep.has(id)) delete project.plugins[id];
    }
    for (const id of opts.remove ?? []) delete project.plugins[id];
    for (const plugin of staged) {
      entries.push(await commitOne(ctx, draft, opts, plugin));
      const { id, version } = plugin.inspected;
      rememberIntegrity(draft, id, version, plugin.integrity);
    }
    if (Object.keys(project.plugins).length === 0) delete draft.projects[opts.key];
    if (Object.keys(draft.projects).length === 0) delete draft.projects;
    if (opts.files !== undefined) assertUnchanged(opts.files.read);
    if (JSON.stringify(draft) !== JSON.stringify(before)) await writeState(ctx.paths, draft);
  } catch (error) {
    await collectGarbage(ctx.paths, before).catch(() => undefined);
    throw error;
  }
  const wrote =
    opts.files === undefined ? [] : await writeProjectFiles(opts.files.read, opts.files.next);
  await collectGarbage(ctx.paths, draft);
  for (const entry of entries) if (entry.enabled) await ensureDataDir(ctx.paths, entry.id);
  const data: RemovedData[] = [];
  for (const id of opts.remove ?? []) {
    const keptFor = dataUsers(draft, id).map(describeDataUser);
    const remove = opts.removeData === true && keptFor.length === 0;
    if (remove) await removeDataDir(ctx.paths, id);
    data.push({ id, removed: remove ? pluginDataDir(ctx.paths, id) : null, keptFor });
  }
  const waiting = entries.filter((e) => !e.active);
  if (waiting.length > 0 && opts.enable === 'ask' && ctx.confirm === undefined)
    throw consentRequired(waiting.map((e) => e.id));
  return { entries, wrote, data };
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

async function commitOne(
  ctx: OperationContext,
  draft: State,
  opts: ProjectCommitOptions,
  staged: StagedPlugin,
): Promise<InstalledEntry> {
  const { id, version } = staged.inspected;
  const plugins = draft.projects![opts.key]!.plugins;
  const existing = Object.hasOwn(plugins, id) ? plugins[id] : undefined;
  const range = opts.ranges[id] ?? staged.source.range;
  if (
    existing !== undefined &&
    existing.version === version &&
    existing.fingerprint === staged.fingerprint &&
    existing.integrity === staged.integrity &&
    existing.enabled
  ) {
    await rm(staged.dir, { recursive: true, force: true });
    plugins[id] = { ...existing, range };
    return entryOf(plugins[id], 'unchanged');
  }
  const path = await promoteTree(
    staged.dir,
    installDir(ctx.paths, { id, version, integrity: staged.integrity }),
  );
  // Q6, issue 15 item 4: what the tree held, so files its plugin creates later are told apart.
  await writeInstalledFiles(ctx.paths, staged.fingerprint, staged.files ?? (await listTree(path)));
  const record: PluginRecord = {
    ...recordOf(staged, path, nowIso(ctx), existing?.installedAt),
    range,
  };
  const tree = { surfaceHash: record.surfaceHash, fingerprint: record.fingerprint };
  let granted = consentedAnywhere(draft, id, tree);
  if (!granted) {
    const baseline = consentBaseline(draft, opts.key, id);
    const review = await reviewStaged(staged, baseline, ctx.paths, path);
    granted = (await decideConsent(review, baseline, opts.enable, ctx.confirm)) !== 'none';
  }
  if (granted) {
    record.consent = { surfaceHash: record.surfaceHash, at: nowIso(ctx), version };
    record.enabled = true;
  }
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
