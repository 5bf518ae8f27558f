import { rm } from 'node:fs/promises';
import { HookpmError, isHookpmError } from '../../errors.js';
import {
  describeMismatches,
  findLockMismatches,
  type LockMismatch,
} from '../../project/lock-agreement.js';
import { emptyLockfile, type LockEntry, type Lockfile } from '../../project/lockfile.js';
import { MAX_RANGE_LENGTH, type ProjectManifest } from '../../project/project-manifest.js';
import { clip } from '../../text/clip.js';
import { assertStoreWritable } from '../../store/check-writable.js';
import { readState } from '../../store/state/state.js';
import type { State } from '../../store/state/state-schema.js';
import { resolveInstallSources } from '../steps/staging/resolve.js';
import { stageAll } from '../steps/staging/stage-all.js';
import type {
  InstallSource,
  MarketplaceSource,
  RegistrySource,
  StagedPlugin,
} from '../steps/staging/types.js';
import {
  marketplaceEntriesOf,
  marketplaceLockEntry,
  marketplaceRange,
  type MarketplaceEntry,
} from '../steps/transaction/project-marketplace.js';
import type { OperationContext } from '../steps/context/operation-context.js';
import type { EnableMode } from '../steps/consent/consent.js';
import { withRequired, type ProjectInstallResult } from './project-result.js';
import { bringInRequired } from '../steps/transaction/bring-in-required.js';
import { commitTransaction } from '../steps/transaction/transaction.js';
import { lockEntryOf } from '../steps/transaction/locked-source.js';
import { planProject } from './plan-project.js';
import {
  indexUrlOfRegistry,
  installScopeOf,
  noManifest,
  openProject,
  projectRegistriesOf,
  type ProjectScope,
} from '../steps/transaction/project-scope.js';
import { stageLocked } from '../steps/transaction/stage-locked.js';
import { assertProjectTarballs } from '../steps/transaction/project-registries.js';

export interface ProjectInstallOptions {
  cwd: string;
  enable: EnableMode;
  includePrerelease?: boolean;
  /** `--dry-run`: the plan (plan-project.ts); nothing is written. */
  dryRun?: boolean;
}

/**
 * `hookpm install --project <spec...>` (docs/guides/projects.md): resolves each spec in the
 * registries of the user and of hookpm.json, installs it into the user's shared store, enables it
 * for this project only (after consent), and records it: its range in hookpm.json (with the
 * registries a teammate needs), its exact bytes in hookpm.lock. A plugin hookpm.json names that the
 * lock does not pin at a version in its range is resolved, installed and locked with them, as
 * `hookpm install` would. The files are written last, after the state; a failure before leaves
 * both byte-identical.
 */
export async function installProjectSpecs(
  ctx: OperationContext,
  specs: readonly string[],
  opts: ProjectInstallOptions,
): Promise<ProjectInstallResult> {
  const scope = await openProject(ctx, opts.cwd);
  if (opts.dryRun !== true) await assertStoreWritable(ctx.paths);
  const resolved = await resolveInstallSources(scope.ctx, specs, {
    cwd: opts.cwd,
    includePrerelease: opts.includePrerelease === true,
  });
  const sources = resolved.sources.map(requireProjectSource);
  for (const source of sources) requireProjectRange(source);
  const manifest = scope.files.manifest ?? { plugins: {}, registries: {} };
  const lock = scope.files.lock ?? emptyLockfile();
  const others = await resolveUnlocked(scope, manifest, lock, sources, opts);
  resolved.notes.push(...others.notes);
  const all = [...sources, ...others.sources];
  assertProjectTarballs(scope.root, scope.registries, all);
  const entries = await marketplaceEntriesOf(scope, resolved.state, all);
  const staged = await stageAll(all, { ctx: scope.ctx, cwd: opts.cwd });
  // The unlocked plugins keep hookpm.json's ranges; each spec's range is the one it asked for.
  const [fromSpecs, unlocked] = [staged.slice(0, sources.length), staged.slice(sources.length)];
  // `--yes` consents to the plugins the specs name, not to those hookpm.json adds along.
  const yesFor = new Set(fromSpecs.map((s) => s.inspected.id));
  const next = await removingOnFailure(staged, () => {
    const locked = nextFiles(scope, manifest, lock, unlocked, resolved.state, { entries });
    return nextFiles(scope, locked.manifest, locked.lock, fromSpecs, resolved.state, {
      rangeFromSpec: true,
      entries,
    });
  });
  if (opts.dryRun === true)
    return withRequired(
      await planProject(scope, staged, { ...opts, yesFor, next, notes: resolved.notes }),
      await bringInRequired(ctx, { cwd: opts.cwd, dryRun: true }),
    );
  const { entries: installed, wrote } = await commitTransaction(
    scope.ctx,
    staged,
    installScopeOf(scope, {
      ranges: next.manifest.plugins,
      exact: false,
      files: { read: scope.files, next },
    }),
    { enable: opts.enable, yesFor },
  );
  return withRequired(
    { project: scope.root, installed, wrote, notes: resolved.notes },
    await bringInRequired(ctx, { cwd: opts.cwd }),
  );
}

/**
 * The plugins of `mismatches` (those hookpm.json names: not `extra`) resolved at the ranges
 * hookpm.json gives them, each a source a project may lock (requireProjectSource).
 */
async function resolveWanted(
  scope: ProjectScope,
  mismatches: readonly LockMismatch[],
  opts: ProjectInstallOptions,
): Promise<{ sources: (RegistrySource | MarketplaceSource)[]; notes: string[]; state: State }> {
  const resolved = await resolveInstallSources(
    scope.ctx,
    mismatches.filter((m) => m.kind !== 'extra').map((m) => `${m.id}@${m.wanted}`),
    { cwd: opts.cwd, includePrerelease: opts.includePrerelease === true },
  );
  return { ...resolved, sources: resolved.sources.map(requireProjectSource) };
}

/**
 * As `npm install <pkg>` does: the plugins hookpm.json names that the lock does not pin at a
 * version in their range (added by hand, or given a range the locked version is outside of),
 * other than those the specs resolved to (`named`), resolved at hookpm.json's ranges, so that
 * the files `install --project` writes are ones `ci` accepts. A failure to resolve them keeps its
 * code, its message saying which entries of hookpm.json it comes from.
 */
async function resolveUnlocked(
  scope: ProjectScope,
  manifest: ProjectManifest,
  lock: Lockfile,
  named: readonly (RegistrySource | MarketplaceSource)[],
  opts: ProjectInstallOptions,
): Promise<{ sources: (RegistrySource | MarketplaceSource)[]; notes: string[] }> {
  const ids = new Set(named.map((s) => `${s.name}@${s.registry}`));
  const unlocked = findLockMismatches(manifest, lock).filter(
    (m) => m.kind !== 'extra' && !ids.has(m.id),
  );
  if (unlocked.length === 0) return { sources: [], notes: [] };
  try {
    return await resolveWanted(scope, unlocked, opts);
  } catch (error) {
    // The user named other plugins: a failure of one of these says where it comes from.
    if (!isHookpmError(error)) throw error;
    const why = `${describeMismatches(unlocked)}, so ${unlocked.length === 1 ? 'it is' : 'they are'}`;
    const hint = 'Or correct or remove its entry in hookpm.json.';
    throw new HookpmError(
      error.code,
      `${why} locked with ${[...ids].join(', ')}: ${error.message}`,
      { ...error.details, hint: error.hint === undefined ? hint : `${error.hint} ${hint}` },
    );
  }
}

/**
 * `hookpm install` with no spec in a project (docs/guides/projects.md): installs what hookpm.json
 * lists at the lock's versions. Only where the two disagree (a plugin added, removed, or given a
 * range the locked version is outside of) is a version resolved again and the lock rewritten;
 * otherwise neither file is written.
 */
export async function installProject(
  ctx: OperationContext,
  opts: ProjectInstallOptions,
): Promise<ProjectInstallResult> {
  const scope = await openProject(ctx, opts.cwd);
  const manifest = scope.files.manifest;
  if (manifest === null) return requiredOnly(ctx, scope.root, opts);
  if (opts.dryRun !== true) await assertStoreWritable(ctx.paths);
  const lock = scope.files.lock ?? emptyLockfile();
  const mismatches = findLockMismatches(manifest, lock);
  const stale = new Set(mismatches.map((m) => m.id));
  const kept: Lockfile = { lockfileVersion: 1, plugins: {} };
  for (const [id, entry] of Object.entries(lock.plugins))
    if (!stale.has(id)) kept.plugins[id] = entry;
  const resolved = await resolveWanted(scope, mismatches, opts);
  const freshSources = resolved.sources;
  assertProjectTarballs(scope.root, scope.registries, freshSources);
  const entries = await marketplaceEntriesOf(scope, resolved.state, freshSources);
  const fromLock = await stageLocked(scope, manifest, kept);
  let fresh: StagedPlugin[];
  try {
    fresh = await stageAll(freshSources, {
      ctx: scope.ctx,
      cwd: opts.cwd,
    });
  } catch (error) {
    await removeStaged(fromLock);
    throw error;
  }
  const all = [...fromLock, ...fresh];
  const next = await removingOnFailure(all, () =>
    nextFiles(scope, manifest, kept, fresh, resolved.state, { entries }),
  );
  const unchanged = mismatches.length === 0 && scope.files.lock !== null;
  if (opts.dryRun === true)
    return withRequired(
      await planProject(scope, all, {
        ...opts,
        next: unchanged ? undefined : { lock: next.lock },
        notes: resolved.notes,
      }),
      await bringInRequired(ctx, { cwd: opts.cwd, dryRun: true }),
    );
  const { entries: installed, wrote } = await commitTransaction(
    scope.ctx,
    all,
    installScopeOf(scope, {
      ranges: manifest.plugins,
      exact: true,
      ...(unchanged ? {} : { files: { read: scope.files, next: { lock: next.lock } } }),
    }),
    { enable: opts.enable },
  );
  return withRequired(
    { project: scope.root, installed, wrote, notes: resolved.notes },
    await bringInRequired(ctx, { cwd: opts.cwd }),
  );
}

/**
 * A bare `hookpm install` outside a project (no hookpm.json): it brings in the policy's required
 * plugins (policy.md A21) when there are any to bring in or to warn about; otherwise it is the
 * E_USAGE of a missing hookpm.json.
 */
async function requiredOnly(
  ctx: OperationContext,
  root: string,
  opts: ProjectInstallOptions,
): Promise<ProjectInstallResult> {
  if (opts.dryRun !== true) await assertStoreWritable(ctx.paths);
  const required = await bringInRequired(ctx, {
    cwd: opts.cwd,
    ...(opts.dryRun === true ? { dryRun: true } : {}),
  });
  if (required.installed.length === 0 && required.notes.length === 0) throw noManifest(root);
  return withRequired(
    {
      project: root,
      installed: [],
      wrote: [],
      notes: [],
      ...(opts.dryRun === true ? { dryRun: true as const } : {}),
    },
    required,
  );
}

/** `fn`'s value; when it throws, the staging trees are removed first. */
async function removingOnFailure<T>(staged: readonly StagedPlugin[], fn: () => T): Promise<T> {
  try {
    return fn();
  } catch (error) {
    await removeStaged(staged);
    throw error;
  }
}

async function removeStaged(staged: readonly StagedPlugin[]): Promise<void> {
  await Promise.all(staged.map((s) => rm(s.dir, { recursive: true, force: true })));
}

/**
 * hookpm.json and hookpm.lock with the staged plugins added (or replaced). With `rangeFromSpec`
 * (`install --project <spec>`), each plugin's range in hookpm.json becomes the one its spec asked
 * for (as `npm install` saves it: `^<version>` for a bare name or an exact version); otherwise
 * hookpm.json keeps its ranges, and its registries' locations (a registry it does not list yet is
 * added as this user's state gives it). A lock entry of an id the new hookpm.json does not name is
 * dropped, as `npm install` prunes one: `ci` refuses a lock naming it (E_LOCK_MISMATCH), and no
 * command installs it.
 */
export function nextFiles(
  scope: ProjectScope,
  manifest: ProjectManifest,
  lock: Lockfile,
  staged: readonly StagedPlugin[],
  state: Awaited<ReturnType<typeof readState>>,
  opts: { rangeFromSpec?: boolean; entries?: ReadonlyMap<string, MarketplaceEntry> } = {},
): { manifest: ProjectManifest; lock: Lockfile } {
  const plugins = { ...manifest.plugins };
  const locked: Record<string, LockEntry> = { ...lock.plugins };
  for (const s of staged) {
    const id = s.inspected.id;
    const range =
      s.source.kind === 'marketplace'
        ? marketplaceRange(s.source.range, s.inspected.version)
        : s.source.range;
    plugins[id] = opts.rangeFromSpec === true ? range : (manifest.plugins[id] ?? range);
    const resolved = s.source.kind === 'marketplace' ? opts.entries?.get(id) : undefined;
    if (s.source.kind === 'marketplace' && resolved === undefined)
      throw new Error(`Assertion failed: ${id} has no checked marketplace entry`);
    locked[id] =
      resolved === undefined
        ? lockEntryOf(s, indexUrlOfRegistry(scope.ctx, state, s.source.registry))
        : marketplaceLockEntry(s, resolved);
  }
  for (const id of Object.keys(locked)) if (!Object.hasOwn(plugins, id)) delete locked[id];
  // A registry hookpm.json lists keeps its location: the user's own of that name takes precedence
  // on this machine only, and may be a path or a mirror no teammate has.
  const registries = {
    ...projectRegistriesOf(scope.ctx, state, Object.keys(plugins), scope.root),
    ...manifest.registries,
  };
  return {
    manifest: { plugins, registries },
    lock: { lockfileVersion: 1, plugins: locked },
  };
}

/**
 * A plugin `install` can hold in a project: one of an index registry (requireRegistrySource), or
 * of a marketplace (J10: project-marketplace.ts checks where it is before it is staged).
 */
export function requireProjectSource(source: InstallSource): RegistrySource | MarketplaceSource {
  return source.kind === 'marketplace' ? source : requireRegistrySource(source);
}

/**
 * A range `install --project` saves in hookpm.json is one hookpm.json may hold (MAX_RANGE_LENGTH):
 * E_USAGE, before anything is staged or written, for a longer one.
 */
function requireProjectRange(source: RegistrySource | MarketplaceSource): void {
  if (source.range.length <= MAX_RANGE_LENGTH) return;
  throw new HookpmError(
    'E_USAGE',
    `${clip(source.spec)}: a project's range is at most ${MAX_RANGE_LENGTH} characters (hookpm.json holds it for every teammate)`,
    { spec: clip(source.spec), hint: 'Give a shorter range.' },
  );
}

/**
 * A project plugin comes from an index registry (`name@registry[@range]`): its lock entry needs a
 * version, a tarball and a sha512 every teammate's hookpm can fetch. Paths and URLs are one
 * machine's; npm and marketplace plugins are not supported in a project yet.
 */
export function requireRegistrySource(source: InstallSource): RegistrySource {
  if (source.kind === 'registry') return source;
  throw new HookpmError(
    'E_USAGE',
    `${source.spec}: a project plugin must come from an index registry (name@registry[@range]), not a ${source.kind}`,
    {
      spec: source.spec,
      hint: 'Publish the plugin to a registry (`hookpm registry build`), list that registry in hookpm.json, and install it by name.',
    },
  );
}
