import { isAbsolute, join, relative, sep } from 'node:path';
import { HookpmError } from '../../../errors.js';
import type { LockEntry } from '../../../project/lockfile.js';
import type { MarketplaceSource } from '../staging/types.js';
import { redactUrl } from '../../../registry/http/url-policy.js';
import { shellWord } from '../../../text/shell-word.js';
import { isEntryRepositoryResolved, shownEntryRepository } from './project-entry-repository.js';

/** The lock fields a staged tree is held to (locked-source.ts, assertMatchesLock). */
export type LockedField = 'integrity' | 'version' | 'surfaceHash' | 'fingerprint';

/**
 * docs/reference/rules/registry.md#j11: E_INTEGRITY for a project's marketplace plugin whose tree
 * differs from hookpm.lock. No registry served these bytes: the message names what was checked,
 * the catalog's plugin directory (relative to the project root when it lies inside it), and the
 * hint the two ways out: re-lock a deliberate change with `hookpm install --project`, or restore
 * the directory (a version installed with other bytes stays refused by V3, so the hint says to bump
 * the version where it is installed).
 */
export function marketplaceTreeMismatch(
  source: MarketplaceSource,
  id: string,
  entry: LockEntry,
  field: LockedField,
  found: string,
  projectRoot: string,
): HookpmError {
  const dir = isEntryRepositoryResolved(entry.resolved)
    ? `the repository ${shownEntryRepository(entry.resolved)} at commit ${entry.commit ?? ''}`
    : entry.commit === undefined
      ? shownDirectory(join(source.location, ...entry.resolved.split('/')), projectRoot)
      : `${entry.resolved} of ${redactUrl(source.location)} at commit ${entry.commit}`;
  const restore =
    entry.commit === undefined
      ? `restore ${dir} (for example with \`git checkout -- ${shellWord(dir)}\`)`
      : `restore hookpm.lock from the project's history (a commit's tree never changes: the lock was edited)`;
  return new HookpmError(
    'E_INTEGRITY',
    `${id}: the marketplace ${source.registry}'s ${isEntryRepositoryResolved(entry.resolved) ? 'entry' : 'plugin directory'} ${dir} is not the tree hookpm.lock pins: its ${field} is ${found}, the lock's ${entry[field]}`,
    {
      plugin: id,
      field,
      expected: entry[field],
      found,
      file: dir,
      hint: `hookpm checked the files of ${dir} against hookpm.lock. If the change is deliberate, run \`hookpm install --project ${id}\` to lock the tree as it is now (where this version is installed with the old files, bump the version in the plugin's manifest first: a version's bytes never change) and commit hookpm.lock; otherwise ${restore}.`,
    },
  );
}

function shownDirectory(dir: string, projectRoot: string): string {
  const rel = relative(projectRoot, dir);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return dir;
  return rel.split(sep).join('/');
}
