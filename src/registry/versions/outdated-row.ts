import semver from './semver.js';
import { latestVersion } from './latest-version.js';
import { newestInRange, type UpdateRequest } from './resolve-version.js';
import type { IndexPlugin } from '../indexes/index-schema.js';
import { isHookpmError } from '../../errors.js';
import { ownValue } from '../../json/own-value.js';

/** What `hookpm outdated` says of one plugin (docs/guides/projects.md). */
export interface OutdatedVersions {
  /**
   * The version `hookpm update` would move to within the range (a dist-tag: the version it names),
   * the installed one when it would not move; when the index moved backwards, the newest it
   * offers (lower than the installed one). Null when none.
   */
  inRange: string | null;
  /** The newest version overall (the `latest` dist-tag, else the highest release). */
  latest: string | null;
  /**
   * Whether the consent surface of `inRange` differs from the installed one (the index entry's
   * surfaceHash): an update to it would be asked about (Q5). Null when the index gives no hash.
   */
  surfaceChangesInRange: boolean | null;
  /** The same for `latest`. */
  surfaceChangesLatest: boolean | null;
}

/** The versions of an index plugin against what is installed, within `wanted` (a range or a dist-tag). */
export function outdatedVersions(
  plugin: IndexPlugin,
  installed: { version: string; surfaceHash: string },
  wanted: string,
): OutdatedVersions {
  const inRange = updateTarget(plugin, installed.version, wanted);
  const latest = latestVersion(plugin);
  const changes = (version: string | undefined): boolean | null => {
    const hash =
      version === undefined ? undefined : ownValue(plugin.versions, version)?.surfaceHash;
    return hash === undefined ? null : hash !== installed.surfaceHash;
  };
  return {
    inRange: inRange ?? null,
    latest: latest ?? null,
    surfaceChangesInRange: changes(inRange),
    surfaceChangesLatest: changes(latest),
  };
}

/**
 * What `hookpm update` picks (newestInRange: the `latest` dist-tag caps, deprecated versions come
 * last, nothing lower than `installed`), so that `outdated` and `update --check` announce only what
 * `update` would install; an index that moved backwards gives the newest version it still offers.
 */
function updateTarget(plugin: IndexPlugin, installed: string, wanted: string): string | undefined {
  if (semver.valid(installed) === null) return undefined;
  // allowDowngrade: an index that moved backwards answers with its newest version, no error.
  const request: UpdateRequest = { name: 'plugin', installed, allowDowngrade: true };
  if (semver.validRange(wanted) !== null) request.range = wanted;
  else request.tag = wanted;
  try {
    return newestInRange({ registry: 'registry', plugin }, request).version;
  } catch (error) {
    if (isHookpmError(error, 'E_NO_MATCHING_VERSION')) return undefined;
    throw error;
  }
}
