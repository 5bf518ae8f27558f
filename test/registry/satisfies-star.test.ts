import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { pickVersion, type Candidate } from '../../src/registry/versions/resolve-version.js';

const VERSIONS = ['0.0.1', '1.0.0', '1.2.3-beta.1', '2.0.0-rc.0', '2.0.0', '3.0.0+build.5'];
// An index names only listed versions in its dist-tags (I3); a tag that is no version at all is
// still handled like semver handles it.
const LATEST = [...VERSIONS, 'nonsense'];

/** An index plugin whose `latest` tag points at `latest`, with every version of VERSIONS listed. */
function candidates(latest: string): Candidate[] {
  const versions = Object.fromEntries(VERSIONS.map((v) => [v, { tarball: 't', integrity: 'i' }]));
  return [{ registry: 'acme', plugin: { keywords: [], distTags: { latest }, versions } }];
}

describe('V2: a bare name picks what the range `*` picks with semver itself', () => {
  for (const latest of LATEST)
    for (const includePrerelease of [false, true])
      it(`V2: latest ${latest}, includePrerelease ${includePrerelease}`, () => {
        const options = { includePrerelease };
        const expected = semver.satisfies(latest, '*', options)
          ? latest
          : semver.maxSatisfying(VERSIONS, '*', options);
        const picked = pickVersion(candidates(latest), { name: 'p', includePrerelease });
        expect(picked.version).toBe(expected);
      });
});
