import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { HookpmError, isHookpmError } from '../../src/errors.js';
import type { IndexPlugin } from '../../src/registry/indexes/index-schema.js';
import {
  checkKnownIntegrity,
  newestInRange,
  pickVersion,
} from '../../src/registry/versions/resolve-version.js';
import type { Candidate, VersionRequest } from '../../src/registry/versions/resolve-version.js';

const sha512 = (text: string): string =>
  `sha512-${createHash('sha512').update(text).digest('base64')}`;

function plugin(
  versions: string[],
  options: {
    latest?: string;
    tags?: Record<string, string>;
    deprecated?: Record<string, string>;
  } = {},
): IndexPlugin {
  const entries: IndexPlugin['versions'] = {};
  for (const v of versions) {
    entries[v] = { tarball: `tarballs/guard-${v}.tgz`, integrity: sha512(v) };
    const reason = options.deprecated?.[v];
    if (reason !== undefined) entries[v].deprecated = reason;
  }
  const distTags = { ...(options.tags ?? {}) };
  if (options.latest !== undefined) distTags['latest'] = options.latest;
  return { keywords: [], distTags, versions: entries };
}

const one = (p: IndexPlugin, registry = 'examples'): Candidate[] => [{ registry, plugin: p }];

function caught(run: () => unknown): HookpmError {
  try {
    run();
  } catch (error) {
    if (isHookpmError(error)) return error;
    throw error;
  }
  throw new Error('expected a HookpmError');
}

describe('pickVersion', () => {
  const versions = ['0.9.0', '1.0.0', '1.1.0', '1.2.0', '2.0.0', '2.1.0-beta.1'];
  const rows: Array<[string, IndexPlugin, Omit<VersionRequest, 'name'>, string]> = [
    [
      'V2: a bare name takes the `latest` dist-tag',
      plugin(versions, { latest: '1.2.0' }),
      {},
      '1.2.0',
    ],
    [
      'V2: a bare name without dist-tags takes the highest stable version',
      plugin(versions),
      {},
      '2.0.0',
    ],
    ['V2: ^1.0.0 takes the highest 1.x', plugin(versions), { range: '^1.0.0' }, '1.2.0'],
    ['V2: ~1.1 takes 1.1.x', plugin(versions), { range: '~1.1' }, '1.1.0'],
    ['V2: an exact version', plugin(versions), { range: '1.0.0' }, '1.0.0'],
    ['V2: an x-range', plugin(versions), { range: '0.x' }, '0.9.0'],
    [
      'V2: `latest` wins when it satisfies the range, as in npm',
      plugin(versions, { latest: '1.1.0' }),
      { range: '^1.0.0' },
      '1.1.0',
    ],
    [
      'V2: `latest` outside the range is passed over for the highest match',
      plugin(versions, { latest: '2.0.0' }),
      { range: '^1.0.0' },
      '1.2.0',
    ],
    [
      'V2: a dist-tag',
      plugin(versions, { tags: { next: '2.1.0-beta.1' } }),
      { tag: 'next' },
      '2.1.0-beta.1',
    ],
    [
      'security.md: ^1.0.0 when 1.1.0-beta.1 is newest installs 1.0.0',
      plugin(['1.0.0', '1.1.0-beta.1']),
      { range: '^1.0.0' },
      '1.0.0',
    ],
    [
      'V2: a bare name never takes a prerelease by default',
      plugin(['1.0.0', '1.1.0-beta.1'], { latest: '1.1.0-beta.1' }),
      {},
      '1.0.0',
    ],
    [
      'V2: includePrerelease lets ^1.0.0 take 1.1.0-beta.1',
      plugin(['1.0.0', '1.1.0-beta.1']),
      { range: '^1.0.0', includePrerelease: true },
      '1.1.0-beta.1',
    ],
    [
      'V2: a range that names a prerelease may choose prereleases of that version',
      plugin(['1.0.0', '1.1.0-beta.1', '1.1.0-beta.2']),
      { range: '>=1.1.0-beta.1' },
      '1.1.0-beta.2',
    ],
    [
      'V2: a deprecated version is passed over when a non-deprecated one matches',
      plugin(['1.0.0', '1.1.0'], { deprecated: { '1.1.0': 'broken' } }),
      { range: '^1.0.0' },
      '1.0.0',
    ],
  ];

  for (const [name, p, request, expected] of rows) {
    it(`${name} (-> ${expected})`, () => {
      const picked = pickVersion(one(p), { name: 'guard', ...request });
      expect(picked.version).toBe(expected);
      expect(picked.registry).toBe('examples');
      expect(picked.entry).toBe(p.versions[expected]);
    });
  }

  it('V2: a deprecated version still installs when it is the only match, with its warning', () => {
    const p = plugin(['1.0.0', '2.0.0'], { deprecated: { '2.0.0': 'use 3.x' } });
    const picked = pickVersion(one(p), { name: 'guard', range: '^2' });
    expect(picked).toMatchObject({ version: '2.0.0', deprecated: 'use 3.x' });
    expect(pickVersion(one(p), { name: 'guard', range: '1.0.0' }).deprecated).toBeUndefined();
  });

  it('V1: a bare name found in several registries is E_AMBIGUOUS listing the ids', () => {
    const candidates = [
      { registry: 'acme', plugin: plugin(['1.0.0']) },
      { registry: 'examples', plugin: plugin(['1.0.0']) },
    ];
    const error = caught(() => pickVersion(candidates, { name: 'guard' }));
    expect(error.code).toBe('E_AMBIGUOUS');
    expect(error.message).toContain('guard@acme, guard@examples');
    expect(error.details['ids']).toEqual(['guard@acme', 'guard@examples']);
    expect(pickVersion(candidates, { name: 'guard', registry: 'acme' }).registry).toBe('acme');
  });

  it('V1: a name no registry has, or a registry without it, is E_NOT_FOUND', () => {
    expect(caught(() => pickVersion([], { name: 'guard' })).code).toBe('E_NOT_FOUND');
    const error = caught(() =>
      pickVersion(one(plugin(['1.0.0'])), { name: 'guard', registry: 'acme' }),
    );
    expect(error.code).toBe('E_NOT_FOUND');
    expect(error.message).toContain('acme');
  });

  it('security.md: a range that matches nothing is E_NO_MATCHING_VERSION listing the nearest versions', () => {
    const p = plugin(['0.1.0', '1.0.0', '1.5.0', '2.0.0', '2.1.0', '5.0.0']);
    const error = caught(() => pickVersion(one(p), { name: 'guard', range: '^3.0.0' }));
    expect(error.code).toBe('E_NO_MATCHING_VERSION');
    expect(error.details['nearest']).toEqual(['5.0.0', '2.1.0', '2.0.0']);
    expect(error.message).toBe(
      'no version of guard@examples matches ^3.0.0; nearest available: 5.0.0, 2.1.0, 2.0.0',
    );
  });

  it('V2: when only prereleases match, the hint names --include-prerelease', () => {
    const error = caught(() =>
      pickVersion(one(plugin(['1.0.0', '2.0.0-rc.1'])), { name: 'guard', range: '^2' }),
    );
    expect(error.code).toBe('E_NO_MATCHING_VERSION');
    expect(error.hint).toContain('--include-prerelease');
  });

  it('V2: an unknown dist-tag is E_NO_MATCHING_VERSION listing the tags', () => {
    const p = plugin(['1.0.0'], { latest: '1.0.0' });
    const error = caught(() => pickVersion(one(p), { name: 'guard', tag: 'canary' }));
    expect(error.code).toBe('E_NO_MATCHING_VERSION');
    expect(error.message).toContain('latest -> 1.0.0');
  });

  it('V2, security.md: a document of 100,000 dist-tags, one named by 100 KB, makes a short message naming latest', () => {
    const tags: Record<string, string> = { ['x'.repeat(100_000)]: '1.0.0' };
    for (let i = 0; i < 100_000; i++) tags[`t${i}`] = '1.0.0';
    const p = plugin(['1.0.0'], { latest: '1.0.0', tags });
    const error = caught(() => pickVersion(one(p), { name: 'guard', tag: 'canary' }));
    expect(error.code).toBe('E_NO_MATCHING_VERSION');
    expect(error.message).toContain('latest -> 1.0.0');
    expect(error.message).toContain('and 99,994 more');
    expect(error.message.length).toBeLessThan(2_000);
    expect(JSON.stringify(error.details).length).toBeLessThan(4_000);
  });

  it('V2: a range that is not npm semver is E_USAGE', () => {
    expect(
      caught(() => pickVersion(one(plugin(['1.0.0'])), { name: 'guard', range: '^^1' })).code,
    ).toBe('E_USAGE');
  });
});

describe('checkKnownIntegrity', () => {
  const p = plugin(['1.0.0', '1.1.0']);
  const picked = pickVersion(one(p), { name: 'guard', range: '1.0.0' });

  it('V3: the same version served with a different integrity is E_INTEGRITY_CHANGED', () => {
    const error = caught(() =>
      checkKnownIntegrity({ version: '1.0.0', integrity: sha512('other bytes') }, picked),
    );
    expect(error.code).toBe('E_INTEGRITY_CHANGED');
    expect(error.details).toMatchObject({
      expected: sha512('other bytes'),
      found: sha512('1.0.0'),
    });
    expect(error.message).toContain('guard@examples 1.0.0');
  });

  it('V3: the same integrity, another version, or nothing installed passes', () => {
    expect(() =>
      checkKnownIntegrity({ version: '1.0.0', integrity: sha512('1.0.0') }, picked),
    ).not.toThrow();
    expect(() =>
      checkKnownIntegrity({ version: '1.1.0', integrity: sha512('x') }, picked),
    ).not.toThrow();
    expect(() => checkKnownIntegrity(undefined, picked)).not.toThrow();
    expect(() => checkKnownIntegrity({ version: '1.0.0', integrity: null }, picked)).not.toThrow();
  });

  it('V3: an added algorithm next to the same sha512 digest is not a change', () => {
    const installed = { version: '1.0.0', integrity: `sha1-abc= ${sha512('1.0.0')}` };
    expect(() => checkKnownIntegrity(installed, picked)).not.toThrow();
  });
});

describe('newestInRange', () => {
  const candidate = (p: IndexPlugin): Candidate => ({ registry: 'examples', plugin: p });

  it('update: moves to the newest version in range', () => {
    const plan = newestInRange(candidate(plugin(['1.0.0', '1.1.0', '2.0.0'])), {
      name: 'guard',
      installed: '1.0.0',
      range: '^1.0.0',
    });
    expect(plan).toMatchObject({ change: 'upgrade', version: '1.1.0' });
  });

  it('update: reports nothing to do when the installed version is the newest', () => {
    const plan = newestInRange(candidate(plugin(['1.0.0', '1.1.0'])), {
      name: 'guard',
      installed: '1.1.0',
    });
    expect(plan).toEqual({ change: 'none', version: '1.1.0' });
  });

  it('V2: update moves no higher than a `latest` dist-tag in range, as install picks (npm-pick-manifest)', () => {
    const p = plugin(['1.0.0', '1.1.0', '1.2.0', '1.3.0'], { latest: '1.1.0' });
    const request = { name: 'guard', range: '^1.0.0' };
    expect(newestInRange(candidate(p), { ...request, installed: '1.0.0' })).toMatchObject({
      change: 'upgrade',
      version: '1.1.0',
    });
    expect(newestInRange(candidate(p), { ...request, installed: '1.1.0' }).change).toBe('none');
    // Installed above the tag: kept, never lowered to it without allowDowngrade (E_DOWNGRADE).
    expect(caught(() => newestInRange(candidate(p), { ...request, installed: '1.2.0' })).code).toBe(
      'E_DOWNGRADE',
    );
    // A prerelease installed explicitly moves to the promoted release, not to a later prerelease.
    const pre = plugin(['1.1.0-beta.1', '1.1.0', '1.2.0-alpha.1'], { latest: '1.1.0' });
    expect(
      newestInRange(candidate(pre), {
        name: 'guard',
        installed: '1.1.0-beta.1',
        range: '^1.1.0-beta.1',
      }),
    ).toMatchObject({ change: 'upgrade', version: '1.1.0' });
    // A deprecated `latest` caps nothing; outside the range it caps nothing either.
    const deprecated = plugin(['1.0.0', '1.1.0', '1.2.0'], {
      latest: '1.1.0',
      deprecated: { '1.1.0': 'broken' },
    });
    expect(newestInRange(candidate(deprecated), { ...request, installed: '1.0.0' }).version).toBe(
      '1.2.0',
    );
    const outside = plugin(['1.0.0', '1.2.0', '2.0.0'], { latest: '2.0.0' });
    expect(newestInRange(candidate(outside), { ...request, installed: '1.0.0' }).version).toBe(
      '1.2.0',
    );
  });

  it('V2, E_DOWNGRADE: a `latest` in range moved back below the installed version is a downgrade: told, and followed with allowDowngrade (as D14 for a project)', () => {
    const p = plugin(['1.0.0', '1.1.0', '1.2.0'], { latest: '1.1.0' });
    const request = { name: 'guard', range: '^1.0.0', installed: '1.2.0' };
    const error = caught(() => newestInRange(candidate(p), request));
    expect(error.code).toBe('E_DOWNGRADE');
    expect(error.message).toContain('`latest` tag');
    expect(error.message).toContain('1.1.0');
    expect(error.details).toMatchObject({ installed: '1.2.0', found: '1.1.0' });
    expect(newestInRange(candidate(p), { ...request, allowDowngrade: true })).toMatchObject({
      change: 'downgrade',
      version: '1.1.0',
    });
  });

  it('update: a newer deprecated version does not replace a non-deprecated installed one', () => {
    const p = plugin(['1.0.0', '1.1.0'], { deprecated: { '1.1.0': 'bad' } });
    expect(newestInRange(candidate(p), { name: 'guard', installed: '1.0.0' }).change).toBe('none');
  });

  it('update: an index that moved backwards is E_DOWNGRADE, never a silent downgrade', () => {
    const error = caught(() =>
      newestInRange(candidate(plugin(['1.0.0', '1.1.0'])), { name: 'guard', installed: '1.2.0' }),
    );
    expect(error.code).toBe('E_DOWNGRADE');
    expect(error.message).toContain('moved backwards');
    expect(error.details).toMatchObject({ installed: '1.2.0', found: '1.1.0' });
  });

  it('update: an index that no longer offers the installed version nor any other in its range moved backwards (E_DOWNGRADE); allowDowngrade has nothing in range to follow', () => {
    const request = { name: 'guard', installed: '1.2.0', range: '^1.2.0' };
    const error = caught(() => newestInRange(candidate(plugin(['1.0.0', '1.1.0'])), request));
    expect(error.code).toBe('E_DOWNGRADE');
    expect(error.message).toContain('1.2.0 is installed, but it offers no version in ^1.2.0');
    const followed = caught(() =>
      newestInRange(candidate(plugin(['1.0.0', '1.1.0'])), { ...request, allowDowngrade: true }),
    );
    expect(followed.code).toBe('E_NO_MATCHING_VERSION');
  });

  it('update: allowDowngrade returns the lower version as a downgrade', () => {
    const plan = newestInRange(candidate(plugin(['1.0.0', '1.1.0'])), {
      name: 'guard',
      installed: '1.2.0',
      allowDowngrade: true,
    });
    expect(plan).toMatchObject({ change: 'downgrade', version: '1.1.0' });
  });

  it('update: a followed dist-tag moves with the tag', () => {
    const p = plugin(['1.0.0', '2.0.0-beta.2'], {
      latest: '1.0.0',
      tags: { beta: '2.0.0-beta.2' },
    });
    expect(
      newestInRange(candidate(p), { name: 'guard', installed: '2.0.0-beta.1', tag: 'beta' }),
    ).toMatchObject({
      change: 'upgrade',
      version: '2.0.0-beta.2',
    });
  });

  it('V2: update never takes a prerelease for a stable install without includePrerelease', () => {
    const p = plugin(['1.0.0', '1.1.0-beta.1']);
    expect(newestInRange(candidate(p), { name: 'guard', installed: '1.0.0' }).change).toBe('none');
    expect(
      newestInRange(candidate(p), { name: 'guard', installed: '1.0.0', includePrerelease: true })
        .version,
    ).toBe('1.1.0-beta.1');
  });

  it('V2: an installed prerelease the range names moves as npm moves it; one installed with includePrerelease keeps prereleases', () => {
    const p = plugin(['1.0.0', '1.1.0-beta.1', '1.1.0-beta.2', '1.1.0', '1.2.0-alpha.1'], {
      latest: '1.0.0',
    });
    const named = { name: 'guard', installed: '1.1.0-beta.1', range: '^1.1.0-beta.1' };
    expect(newestInRange(candidate(p), named).version).toBe('1.1.0');
    expect(newestInRange(candidate(p), { ...named, includePrerelease: true }).version).toBe(
      '1.2.0-alpha.1',
    );
    const untagged = plugin(['1.0.0', '1.1.0-beta.1', '1.1.0-beta.2']);
    const widened = { name: 'guard', installed: '1.1.0-beta.1', range: '^1.0.0' };
    expect(newestInRange(candidate(untagged), widened).version).toBe('1.1.0-beta.2');
  });

  it('V2: update with a range that matches nothing is E_NO_MATCHING_VERSION', () => {
    const error = caught(() =>
      newestInRange(candidate(plugin(['1.0.0'])), {
        name: 'guard',
        installed: '1.0.0',
        range: '^4',
      }),
    );
    expect(error.code).toBe('E_NO_MATCHING_VERSION');
  });
});
