import { isAbsolute, relative, sep } from 'node:path';
import { HookpmError } from '../../../errors.js';
import { isLockedCommit, isLockedLocation, type LockEntry } from '../../../project/lockfile.js';
import { isProjectGitLocation, locationError } from '../../../project/project-registry-location.js';
import { resolveEntryPath } from '../../../registry/marketplace/entry-path.js';
import type { State } from '../../../store/state/state-schema.js';
import { isInside } from '../../../text/path-inside.js';
import { landingOf, realRootOf } from '../../../workspace/inside-root.js';
import { effectiveRegistries } from '../catalogs/defaults.js';
import { readMarketplace } from '../catalogs/read-marketplace.js';
import { environmentOf } from '../context/operation-context.js';
import type { InstallSource, MarketplaceSource, StagedPlugin } from '../staging/types.js';
import type { ProjectScope } from './project-scope.js';
import { gitMarketplaceEntryOf, type MarketplaceEntry } from './project-marketplace-git.js';
import { entryRepositoryResolved } from './project-entry-repository.js';
import { cannotHold } from './cannot-hold.js';

/** What a project can hold, for the refusals below. */
const HOLDS =
  'A project holds a marketplace plugin whose marketplace is a directory committed in the project or a git repository added by its URL ending in .git (https://, or file:// on this machine), and whose entry is a "./" directory of it or, in a marketplace inside the project, a git repository (github, url, git-subdir); npm entries are not held by projects yet.';

export type { MarketplaceEntry } from './project-marketplace-git.js';

/** Whether the registry `name`, as this command sees it, is a marketplace. */
export function isMarketplaceRegistry(scope: ProjectScope, state: State, name: string): boolean {
  const entry = effectiveRegistries(state, scope.ctx.defaults).find((e) => e.name === name);
  return entry?.record.kind === 'marketplace';
}

/**
 * docs/reference/rules/registry.md#j10: where a project's marketplace plugin comes from, as its
 * lock records it (`resolved`): the entry's relative source, normalised (`plugins/guard`), read
 * from the catalog of the registry `registry` as this command sees it. The marketplace must be a
 * directory inside the project, and its catalog file and the plugin's directory must lead inside
 * the project once symlinks are resolved (E_REGISTRY_LOCATION otherwise, before the plugin is
 * read); an entry whose own source is a git repository is locked by that repository's URL (J13,
 * project-entry-repository.ts) and its commit once cloned; an npm entry, or one outside the
 * marketplace root, is E_USAGE: a teammate's hookpm could not fetch the same bytes from the lock.
 * A git marketplace (J12) is read from a clone at `commit` (the lock's), else at its HEAD, whose commit
 * the entry then carries (project-marketplace-git.ts).
 */
export async function marketplaceEntryOf(
  scope: ProjectScope,
  state: State,
  id: string,
  registry: string,
  name: string,
  commit?: string,
): Promise<MarketplaceEntry> {
  const entry = effectiveRegistries(state, scope.ctx.defaults).find((e) => e.name === registry);
  const location = entry?.record.location ?? '';
  if (isProjectGitLocation(location))
    return gitMarketplaceEntryOf(scope, id, registry, name, location, commit);
  const project = realRootOf(scope.root);
  const inside = (path: string): boolean => {
    const landing = landingOf(path);
    return landing !== null && isInside(project, landing);
  };
  if (!isAbsolute(location) || !inside(location))
    throw cannotHold(
      id,
      `its marketplace ${location} is not a directory inside the project`,
      HOLDS,
    );
  const { env, cwd } = environmentOf(scope.ctx);
  const read = await readMarketplace(location, { cwd, env, paths: scope.ctx.paths });
  try {
    if (!inside(read.file))
      throw locationError(registry, location, scope.root, `names a catalog outside the project`);
    const item = read.marketplace.plugins.find((p) => p.name === name);
    if (item === undefined)
      throw new HookpmError(
        'E_NOT_FOUND',
        `${id}: the marketplace ${registry} has no such plugin`,
        {
          plugin: id,
          registry,
        },
      );
    if (item.source.kind === 'git')
      return { resolved: entryRepositoryResolved(id, item.source), entryRepository: true };
    if (item.source.kind !== 'path' || read.roots === null)
      throw cannotHold(
        id,
        `its source is ${item.source.kind}, not a directory of the marketplace`,
        HOLDS,
      );
    const dir = resolveEntryPath(read.roots, item.source.path);
    if (dir === null || !inside(dir))
      throw locationError(registry, location, scope.root, `names a plugin outside the project`);
    const resolved = relative(read.roots.root, dir).split(sep).join('/');
    if (!isLockedLocation(resolved))
      throw cannotHold(
        id,
        `its directory ./${item.source.path} is not below the marketplace root`,
        HOLDS,
      );
    return { resolved };
  } finally {
    await read.dispose();
  }
}

/** The source that stages a locked marketplace plugin again: from its marketplace, by name. */
export function lockedMarketplaceSource(
  scope: ProjectScope,
  state: State,
  id: string,
  range: string,
): MarketplaceSource {
  const at = id.lastIndexOf('@');
  const name = id.slice(0, at);
  const registry = id.slice(at + 1);
  const entry = effectiveRegistries(state, scope.ctx.defaults).find((e) => e.name === registry);
  return {
    kind: 'marketplace',
    spec: id,
    path: id,
    fallbackName: name,
    registry,
    range,
    name,
    location: entry?.record.location ?? '',
  };
}

/** E_LOCK_MISMATCH: the catalog now gives the plugin another directory than the lock. */
export function movedInCatalog(id: string, locked: string, now: string): HookpmError {
  return new HookpmError(
    'E_LOCK_MISMATCH',
    `hookpm.lock's resolved for ${id} is ${locked}, but its marketplace now lists it at ${now}; nothing was read`,
    {
      plugin: id,
      expected: now,
      found: locked,
      hint: 'Review the change to the marketplace; `hookpm install --project` locks what it lists now.',
    },
  );
}

/** The lock entry of a staged marketplace plugin, `resolved` and `commit` being marketplaceEntryOf's. */
export function marketplaceLockEntry(staged: StagedPlugin, entry: MarketplaceEntry): LockEntry {
  // J13: an entry's own repository is locked at the commit it was cloned at.
  const commit =
    entry.entryRepository === true && staged.source.kind === 'marketplace'
      ? staged.source.entryCommit
      : entry.commit;
  if (entry.entryRepository === true && commit === undefined)
    throw new Error(`Assertion failed: ${entry.resolved} was staged without its commit`);
  if (entry.entryRepository === true && !isLockedCommit(commit))
    throw cannotHold(
      staged.source.spec,
      `its repository's commit id ${commit ?? ''} is not a sha1 id`,
      HOLDS,
    );
  return {
    version: staged.inspected.version,
    resolved: entry.resolved,
    integrity: staged.integrity,
    surfaceHash: staged.inspected.surface.surfaceHash,
    fingerprint: staged.fingerprint,
    ...(commit === undefined ? {} : { commit }),
  };
}

/**
 * The marketplace sources among `sources`, each with its entry (marketplaceEntryOf), by id,
 * checked before anything is staged. A source of a git marketplace is pinned (its `commit` set)
 * to the commit its entry was read at, so that what is staged and locked is that commit's tree
 * even if the remote moves on meanwhile.
 */
export async function marketplaceEntriesOf(
  scope: ProjectScope,
  state: State,
  sources: readonly InstallSource[],
): Promise<Map<string, MarketplaceEntry>> {
  const out = new Map<string, MarketplaceEntry>();
  for (const source of sources) {
    if (source.kind !== 'marketplace') continue;
    const id = `${source.name}@${source.registry}`;
    const entry = await marketplaceEntryOf(scope, state, id, source.registry, source.name);
    if (entry.commit !== undefined) source.commit = entry.commit;
    out.set(id, entry);
  }
  return out;
}

/** The range hookpm.json records for a marketplace plugin installed without one. */
export function marketplaceRange(range: string, version: string): string {
  if (range !== '') return range;
  return /^\d+\.\d+\.\d+$/.test(version) ? `^${version}` : 'latest';
}
