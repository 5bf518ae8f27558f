import semver from './semver.js';
import { latestVersion } from './latest-version.js';
import { sortDescending } from './version-list.js';
import type { IndexPlugin } from '../indexes/index-schema.js';
import { ownValue } from '../../json/own-value.js';

/** What `hookpm outdated` says of one plugin (docs/guides/projects.md). */
export interface OutdatedVersions {
  /** The newest version the range allows (a dist-tag: the version it names); null when none. */
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
  const versions = Object.keys(plugin.versions);
  const tagged = ownValue(plugin.distTags, wanted);
  const includePrerelease = semver.prerelease(installed.version) !== null;
  const inRange =
    tagged ??
    (semver.validRange(wanted) === null
      ? undefined
      : sortDescending(versions).find((v) => semver.satisfies(v, wanted, { includePrerelease })));
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
