import { rm } from 'node:fs/promises';
import { HookpmError } from '../../../errors.js';
import type { Lockfile } from '../../../project/lockfile.js';
import type { ProjectManifest } from '../../../project/project-manifest.js';
import { readState } from '../../../store/state/state.js';
import { stageAll } from '../staging/stage-all.js';
import type { InstallSource, StagedPlugin } from '../staging/types.js';
import type { State } from '../../../store/state/state-schema.js';
import { assertLockedIntegrity } from './locked-integrity.js';
import {
  isMarketplaceRegistry,
  lockedMarketplaceSource,
  marketplaceEntryOf,
  movedInCatalog,
} from './project-marketplace.js';
import { assertMatchesLock } from './locked-source.js';
import { lockedSources, type LockedPlugin } from './locked-registry.js';
import { assertProjectTarballs } from './project-registries.js';
import type { ProjectScope } from './project-scope.js';

/**
 * J10: a locked marketplace plugin is staged from its marketplace only where the catalog still
 * lists it at the locked directory, inside the project (E_LOCK_MISMATCH, E_REGISTRY_LOCATION before
 * it is read), and V3 holds for its locked integrity; the staged tree is then held to the lock as
 * a tarball is (assertMatchesLock: E_INTEGRITY when its files changed).
 */
async function marketplaceSourceOfLocked(
  scope: ProjectScope,
  state: State,
  { id, entry, range }: LockedPlugin,
): Promise<InstallSource> {
  const at = id.lastIndexOf('@');
  const name = id.slice(0, at);
  const registry = id.slice(at + 1);
  const now = await marketplaceEntryOf(scope, state, id, registry, name, entry.commit);
  if (now.resolved !== entry.resolved) throw movedInCatalog(id, entry.resolved, now.resolved);
  if (now.entryRepository === true && entry.commit === undefined)
    throw commitMismatch(id, registry, undefined, 'entry');
  if (now.entryRepository !== true && now.commit !== entry.commit)
    throw commitMismatch(id, registry, entry.commit);
  assertLockedIntegrity(state, {
    name,
    registry,
    version: entry.version,
    integrity: entry.integrity,
  });
  const source = lockedMarketplaceSource(scope, state, id, range);
  if (entry.commit === undefined) return source;
  // J13: the entry's own repository is cloned at the locked commit; J12: the marketplace's is.
  return now.entryRepository === true
    ? { ...source, entryCommit: entry.commit }
    : { ...source, commit: entry.commit };
}

/**
 * J12: E_LOCK_MISMATCH when a lock's `commit` does not fit its registry: a git marketplace's plugin
 * (or, J13, a plugin whose entry is a git repository) locked without one, or a commit locked for a plugin of a directory marketplace or an index.
 */
function commitMismatch(
  id: string,
  registry: string,
  commit: string | undefined,
  of: 'marketplace' | 'entry' = 'marketplace',
): HookpmError {
  const why =
    of === 'entry'
      ? `names no commit, but its entry in ${registry} is a git repository`
      : commit === undefined
        ? `names no commit, but the marketplace ${registry} is a git repository`
        : `names the commit ${commit}, but ${registry} is not a git marketplace`;
  return new HookpmError(
    'E_LOCK_MISMATCH',
    `hookpm.lock's entry for ${id} ${why}; nothing was read`,
    {
      plugin: id,
      hint: `Run \`hookpm install --project ${id}\` to lock it again, and commit hookpm.lock.`,
    },
  );
}

/**
 * Stages exactly what the lock pins for `ids` (every locked id when absent): each tarball from the
 * registry its id names, where that registry's index lists the locked version (J1:
 * E_LOCK_MISMATCH, E_INTEGRITY, E_INTEGRITY_CHANGED before anything is read; locked-registry.ts),
 * inside the project for a project registry on disk (J3), verified against its locked integrity
 * while it streams in (E_INTEGRITY), then its version, surface and fingerprint against the lock
 * (E_INTEGRITY). All or nothing: on any failure every staging tree is removed and nothing else was
 * touched.
 */
export async function stageLocked(
  scope: ProjectScope,
  manifest: ProjectManifest,
  lock: Lockfile,
  opts: { ids?: readonly string[] } = {},
): Promise<StagedPlugin[]> {
  const ids = opts.ids ?? Object.keys(lock.plugins).sort();
  if (ids.length === 0) return [];
  const state = await readState(scope.ctx.paths);
  const locked = ids.map((id): LockedPlugin => {
    const entry = lock.plugins[id]!;
    return { id, entry, range: manifest.plugins[id] ?? `^${entry.version}` };
  });
  const fromMarketplace = locked.filter((p) =>
    isMarketplaceRegistry(scope, state, p.id.slice(p.id.lastIndexOf('@') + 1)),
  );
  for (const p of locked)
    if (!fromMarketplace.includes(p) && p.entry.commit !== undefined)
      throw commitMismatch(p.id, p.id.slice(p.id.lastIndexOf('@') + 1), p.entry.commit);
  const indexSources = await lockedSources(
    scope,
    locked.filter((p) => !fromMarketplace.includes(p)),
    state,
  );
  const sources: InstallSource[] = [];
  for (const plugin of locked) {
    if (!fromMarketplace.includes(plugin)) {
      sources.push(indexSources.shift()!);
      continue;
    }
    sources.push(await marketplaceSourceOfLocked(scope, state, plugin));
  }
  assertProjectTarballs(scope.root, scope.registries, sources);
  const staged = await stageAll(sources, {
    ctx: scope.ctx,
    cwd: scope.root,
  });
  try {
    staged.forEach((s, i) => assertMatchesLock(s, ids[i]!, lock.plugins[ids[i]!]!, scope.root));
  } catch (error) {
    await Promise.all(staged.map((s) => rm(s.dir, { recursive: true, force: true })));
    throw error;
  }
  return staged;
}
