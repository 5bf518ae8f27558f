import { HookpmError } from '../../errors.js';
import { ownValue } from '../../json/own-value.js';
import { clip } from '../../text/clip.js';
import semver from '../../registry/versions/semver.js';
import type { MarketplaceSource, RegistrySource } from '../steps/staging/types.js';
import { compareCodeUnits } from '../../json/compare.js';
import { emptyLockfile, type Lockfile } from '../../project/lockfile.js';
import { assertStoreWritable } from '../../store/check-writable.js';
import { readState } from '../../store/state/state.js';
import { resolveInstallSources } from '../steps/staging/resolve.js';
import { stageAll } from '../steps/staging/stage-all.js';
import type { OperationContext } from '../steps/context/operation-context.js';
import type { EnableMode } from '../steps/consent/consent.js';
import { hasCurrentConsent } from '../../store/state/current-consent.js';
import type { ProjectInstallResult } from './project-result.js';
import { commitTransaction } from '../steps/transaction/transaction.js';
import { nextFiles, requireProjectSource } from './install-project.js';
import { marketplaceEntriesOf } from '../steps/transaction/project-marketplace.js';
import { planProject } from './plan-project.js';
import {
  installScopeOf,
  noManifest,
  openProject,
  readProject,
} from '../steps/transaction/project-scope.js';
import { assertProjectTarballs } from '../steps/transaction/project-registries.js';
import { requireNotRequired } from '../steps/policy/enforce-policy.js';

/** The ids of hookpm.json that `names` (ids, or names unique among them) mean; E_NOT_INSTALLED otherwise. */
export function projectIdsOf(
  ids: readonly string[],
  names: readonly string[],
  root: string,
): string[] {
  return names.map((name) => {
    if (ids.includes(name)) return name;
    const matches = ids.filter((id) => id.slice(0, id.lastIndexOf('@')) === name);
    if (matches.length === 1) return matches[0]!;
    throw new HookpmError(
      matches.length === 0 ? 'E_NOT_INSTALLED' : 'E_AMBIGUOUS',
      matches.length === 0
        ? `${name} is not a plugin of the project ${root} (hookpm.json)`
        : `${name} names several plugins of the project: ${matches.join(', ')}`,
      { name, hint: 'Run `hookpm list --project` to see the project plugins.' },
    );
  });
}

/**
 * `hookpm uninstall --project <name...> [--keep-data]`: removes the plugins from hookpm.json,
 * hookpm.lock and this project's records (state first, then the files). A name is looked for in
 * hookpm.json and in this user's records of the project: a plugin a pull dropped from hookpm.json
 * (or a project whose hookpm.json is gone) still runs here until its record is removed, and no
 * file is then created. The shared trees are collected when no record names them; a data directory
 * is deleted (without keepData) only when no record names its id any more: the user-wide plugin
 * and other projects keep theirs (plugins.md V3, docs/guides/projects.md).
 */
export async function uninstallProjectPlugins(
  ctx: OperationContext,
  opts: { cwd: string; names: readonly string[]; keepData: boolean },
): Promise<ProjectInstallResult> {
  const scope = await openProject(ctx, opts.cwd);
  const manifest = scope.files.manifest;
  const state = await readState(ctx.paths);
  const records = Object.keys(state.projects?.[scope.key]?.plugins ?? {});
  if (manifest === null && records.length === 0) throw noManifest(scope.root);
  const known = [...new Set([...Object.keys(manifest?.plugins ?? {}), ...records])];
  const ids = projectIdsOf(known, opts.names, scope.root);
  // docs/reference/rules/policy.md#a14: nothing is removed when one is required.
  for (const id of ids) {
    const at = id.lastIndexOf('@');
    requireNotRequired(ctx, 'uninstalling', { name: id.slice(0, at), registry: id.slice(at + 1) });
  }
  await assertStoreWritable(ctx.paths);
  const named = (of: Readonly<Record<string, unknown>> | undefined): boolean =>
    of !== undefined && ids.some((id) => Object.hasOwn(of, id));
  const plugins = { ...manifest?.plugins };
  const lock: Lockfile = { lockfileVersion: 1, plugins: { ...(scope.files.lock?.plugins ?? {}) } };
  for (const id of ids) {
    delete plugins[id];
    delete lock.plugins[id];
  }
  const { wrote, data } = await commitTransaction(
    scope.ctx,
    [],
    installScopeOf(scope, {
      ranges: plugins,
      exact: false,
      remove: ids,
      removeData: !opts.keepData,
      // Only a file naming one of the plugins is rewritten: none is created for records alone.
      ...(named(manifest?.plugins) || named(scope.files.lock?.plugins)
        ? {
            files: {
              read: scope.files,
              next: {
                lock,
                ...(manifest !== null && named(manifest.plugins)
                  ? { manifest: { plugins, registries: manifest.registries } }
                  : {}),
              },
            },
          }
        : {}),
    }),
    { enable: 'no' },
  );
  const notes = ids.map((id) => `removed ${id} from the project`);
  for (const { id, removed, keptFor } of data) {
    if (removed !== null) notes.push(`removed the data directory of ${id}: ${removed}`);
    else if (keptFor.length > 0)
      notes.push(
        `kept the data directory of ${id}: ${keptFor.join(', ')} ${keptFor.length === 1 ? 'uses' : 'use'} it`,
      );
  }
  return { project: scope.root, installed: [], wrote, notes };
}

/**
 * `hookpm update --project [name...]`: the newest version within each plugin's hookpm.json range
 * (every project plugin when no name is given), installed for this project and locked. As the
 * user-wide update (registry.md V3): prerelease versions only with `includePrerelease`, and never
 * lower than the locked version unless `allowDowngrade`; a plugin whose registry moved backwards
 * keeps its lock entry and is named in a warning note.
 */
export async function updateProjectPlugins(
  ctx: OperationContext,
  opts: {
    cwd: string;
    names: readonly string[];
    enable: EnableMode;
    /** The plan (plan-project.ts); nothing is written. */
    dryRun?: boolean;
    allowDowngrade?: boolean;
    includePrerelease?: boolean;
  },
): Promise<ProjectInstallResult> {
  const scope = await openProject(ctx, opts.cwd);
  const manifest = scope.files.manifest;
  if (manifest === null) throw noManifest(scope.root);
  const all = Object.keys(manifest.plugins).sort(compareCodeUnits);
  const ids = opts.names.length === 0 ? all : projectIdsOf(all, opts.names, scope.root);
  if (opts.dryRun !== true) await assertStoreWritable(ctx.paths);
  const resolved = await resolveInstallSources(
    scope.ctx,
    ids.map((id) => `${id}@${manifest.plugins[id]}`),
    { cwd: opts.cwd, includePrerelease: opts.includePrerelease === true, refresh: true },
  );
  const held = heldBack(
    { lock: scope.files.lock, ranges: manifest.plugins },
    resolved.sources.map(requireProjectSource),
    opts,
  );
  const sources = held.sources;
  resolved.notes.push(...held.notes);
  assertProjectTarballs(scope.root, scope.registries, sources);
  const entries = await marketplaceEntriesOf(scope, resolved.state, sources);
  const staged = await stageAll(sources, { ctx: scope.ctx, cwd: opts.cwd });
  const lock = scope.files.lock ?? emptyLockfile();
  const next = nextFiles(scope, manifest, lock, staged, resolved.state, { entries });
  if (opts.dryRun === true)
    return planProject(scope, staged, {
      enable: opts.enable,
      next: { lock: next.lock },
      notes: resolved.notes,
    });
  const { entries: installed, wrote } = await commitTransaction(
    scope.ctx,
    staged,
    installScopeOf(scope, {
      ranges: manifest.plugins,
      exact: false,
      files: { read: scope.files, next: { lock: next.lock } },
    }),
    { enable: opts.enable },
  );
  return { project: scope.root, installed, wrote, notes: resolved.notes };
}

/**
 * The sources an update follows: without `allowDowngrade`, one whose version is lower than the
 * locked one is held back, with a note; the lock keeps it. The version a registry offers for a
 * range is the one install picks (its `latest` when that is in the range), so it can be lower
 * while the locked version is still listed: the note says "offers", not "lists".
 */
function heldBack(
  project: { lock: Lockfile | null; ranges: Readonly<Record<string, string>> },
  sources: readonly (RegistrySource | MarketplaceSource)[],
  opts: { allowDowngrade?: boolean },
): { sources: (RegistrySource | MarketplaceSource)[]; notes: string[] } {
  const notes: string[] = [];
  const kept = sources.filter((source) => {
    // A marketplace lists one version, known once staged: it is what the catalog holds now.
    if (source.kind === 'marketplace') return true;
    const id = `${source.name}@${source.registry}`;
    const locked = project.lock === null ? undefined : ownValue(project.lock.plugins, id);
    if (opts.allowDowngrade === true || locked === undefined) return true;
    if (!semver.valid(locked.version) || !semver.lt(source.version, locked.version)) return true;
    notes.push(
      `warning: ${id}: the version its registry offers for ${clip(ownValue(project.ranges, id) ?? '*')} is ${source.version}, older than the locked ${locked.version}; the lock keeps ${locked.version} (--allow-downgrade follows the registry)`,
    );
    return false;
  });
  return { sources: kept, notes };
}

/** One row of `hookpm list --project`. */
export interface ProjectListEntry {
  id: string;
  /** What hookpm.json asks for. */
  wanted: string | null;
  /** The version hookpm.lock pins (null: not locked). */
  locked: string | null;
  /** The version installed for this project by this user (null: not installed; run `hookpm ci`). */
  installed: string | null;
  enabled: boolean;
  /** Whether its hooks run in this project now (enabled and consented to this surface). */
  active: boolean;
}

export interface ProjectList {
  project: string;
  plugins: ProjectListEntry[];
}

/**
 * `hookpm list --project`: the project's plugins as hookpm.json, hookpm.lock and this user's state
 * see them. No registry is read, so none is checked (J3): a location `ci` refuses lists.
 */
export async function listProjectPlugins(ctx: OperationContext, cwd: string): Promise<ProjectList> {
  const scope = await readProject(cwd);
  const state = await readState(ctx.paths);
  const records = state.projects?.[scope.key]?.plugins ?? {};
  const wanted = scope.files.manifest?.plugins ?? {};
  const locked = scope.files.lock?.plugins ?? {};
  const ids = [
    ...new Set([...Object.keys(wanted), ...Object.keys(locked), ...Object.keys(records)]),
  ];
  const plugins = ids.sort(compareCodeUnits).map((id): ProjectListEntry => {
    const record = Object.hasOwn(records, id) ? records[id] : undefined;
    return {
      id,
      wanted: Object.hasOwn(wanted, id) ? wanted[id]! : null,
      locked: Object.hasOwn(locked, id) ? locked[id]!.version : null,
      installed: record?.version ?? null,
      enabled: record?.enabled ?? false,
      active: record !== undefined && record.enabled && hasCurrentConsent(record),
    };
  });
  return { project: scope.root, plugins };
}
