import { rm } from 'node:fs/promises';
import type { Lockfile } from '../../../project/lockfile.js';
import { splitPluginId } from '../../../project/plugin-id.js';
import type { ProjectManifest } from '../../../project/project-manifest.js';
import { readState } from '../../../store/state/state.js';
import { stageAll } from '../staging/stage-all.js';
import type { InstallSource, StagedPlugin } from '../staging/types.js';
import { assertMatchesLock, sourceOfLockEntry } from './locked-source.js';
import { indexUrlOfRegistry, type ProjectScope } from './project-scope.js';

/**
 * Stages exactly what the lock pins for `ids` (every locked id when absent): each tarball from its
 * locked location, verified against its locked integrity while it streams in (E_INTEGRITY), then
 * its version, surface and fingerprint against the lock (E_INTEGRITY). All or nothing: on any
 * failure every staging tree is removed and nothing else was touched.
 */
export async function stageLocked(
  scope: ProjectScope,
  manifest: ProjectManifest,
  lock: Lockfile,
  opts: { ids?: readonly string[] } = {},
): Promise<StagedPlugin[]> {
  const state = await readState(scope.ctx.paths);
  const ids = opts.ids ?? Object.keys(lock.plugins).sort();
  const sources: InstallSource[] = ids.map((id) => {
    const entry = lock.plugins[id]!;
    const registry = splitPluginId(id)!.registry;
    const indexUrl = /^https?:\/\//i.test(entry.resolved)
      ? entry.resolved
      : indexUrlOfRegistry(scope.ctx, state, registry);
    return sourceOfLockEntry(id, entry, manifest.plugins[id] ?? `^${entry.version}`, indexUrl);
  });
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
