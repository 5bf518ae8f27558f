import { HookpmError } from '../../../errors.js';
import { isLockedLocation, type LockEntry } from '../../../project/lockfile.js';
import { withoutUserInfo } from '../../../registry/http/url-policy.js';
import type { StagedPlugin } from '../staging/types.js';
import { marketplaceTreeMismatch } from './marketplace-tree-mismatch.js';

const REMOTE = /^https?:\/\//i;

/**
 * projects (docs/guides/projects.md): where a tarball is, as the lock writes it. An http(s) URL
 * stays as it is, less any user and password (N5: the lock is committed; each teammate's own
 * registry of that name gives theirs); a tarball of a registry on disk (a `file:` URL) is written
 * relative to the registry's index, so that the lock names no absolute path of one machine (a
 * teammate's `examples` registry is in another directory).
 */
export function lockedLocation(url: string, indexUrl: string): string {
  const base = new URL('.', indexUrl).href;
  const located = REMOTE.test(url)
    ? withoutUserInfo(url)
    : url.startsWith(base)
      ? url.slice(base.length)
      : url;
  if (isLockedLocation(located)) return located;
  throw new HookpmError(
    'E_USAGE',
    `the tarball ${url} is neither served over http(s) nor inside its registry's directory, so a lock cannot name it on other machines`,
    {
      url,
      hint: 'Serve the registry over https (`hookpm registry serve` for a try), or keep its tarballs under its directory.',
    },
  );
}

/** The tarball URL of a lock's `resolved`, against the registry's index URL when relative. */
export function tarballUrlOfLocked(resolved: string, indexUrl: string): string {
  return new URL(resolved, indexUrl).href;
}

/**
 * Whether a lock's `resolved` names the tarball `url` a registry serves: the same URL once both
 * are without user and password (a lock written by a teammate holds none, whatever the registry
 * URL of this user's own holds).
 */
export function locksTarball(resolved: string, indexUrl: string, url: string): boolean {
  return withoutUserInfo(tarballUrlOfLocked(resolved, indexUrl)) === withoutUserInfo(url);
}

/** The lock entry of a staged registry plugin. */
export function lockEntryOf(staged: StagedPlugin, indexUrl: string): LockEntry {
  if (staged.source.kind !== 'registry')
    throw new Error('Assertion failed: a project plugin comes from an index registry');
  return {
    version: staged.inspected.version,
    resolved: lockedLocation(staged.source.url, indexUrl),
    integrity: staged.integrity,
    surfaceHash: staged.inspected.surface.surfaceHash,
    fingerprint: staged.fingerprint,
  };
}

/**
 * projects (docs/guides/projects.md): the staged plugin is what the lock pins, byte for byte: the
 * tarball's integrity was checked while downloading; here its version, surface and files
 * fingerprint. E_INTEGRITY otherwise, naming what was expected and found (for a marketplace tree,
 * its directory below `projectRoot` and how to re-lock or restore it: J11).
 */
export function assertMatchesLock(
  staged: StagedPlugin,
  id: string,
  entry: LockEntry,
  projectRoot = '',
): void {
  const found = {
    version: staged.inspected.version,
    surfaceHash: staged.inspected.surface.surfaceHash,
    fingerprint: staged.fingerprint,
    integrity: staged.integrity,
  };
  for (const key of ['integrity', 'version', 'surfaceHash', 'fingerprint'] as const) {
    if (found[key] === entry[key]) continue;
    if (staged.source.kind === 'marketplace')
      throw marketplaceTreeMismatch(staged.source, id, entry, key, found[key], projectRoot);
    throw new HookpmError(
      'E_INTEGRITY',
      `${id}: the installed ${key} ${found[key]} differs from hookpm.lock's ${entry[key]}`,
      {
        plugin: id,
        field: key,
        expected: entry[key],
        found: found[key],
        hint: 'The registry serves other bytes than the lock was written with. If the change is expected, run `hookpm update --project` to lock the new bytes and commit hookpm.lock.',
      },
    );
  }
}
