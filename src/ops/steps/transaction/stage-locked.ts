import { rm } from 'node:fs/promises';
import type { Lockfile } from '../../../project/lockfile.js';
import type { ProjectManifest } from '../../../project/project-manifest.js';
import { readState } from '../../../store/state/state.js';
import { stageAll } from '../staging/stage-all.js';
import type { StagedPlugin } from '../staging/types.js';
import { assertMatchesLock } from './locked-source.js';
import { lockedSources, type LockedPlugin } from './locked-registry.js';
import { assertProjectTarballs } from './project-registries.js';
import type { ProjectScope } from './project-scope.js';

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
  const sources = await lockedSources(scope, locked, state);
  assertProjectTarballs(scope.root, scope.registries, sources);
  const staged = await stageAll(sources, {
    ctx: scope.ctx,
    cwd: scope.root,
  });
  try {
    staged.forEach((s, i) => assertMatchesLock(s, ids[i]!, lock.plugins[ids[i]!]!));
  } catch (error) {
    await Promise.all(staged.map((s) => rm(s.dir, { recursive: true, force: true })));
    throw error;
  }
  return staged;
}
