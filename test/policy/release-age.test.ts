import { describe, expect, it } from 'vitest';
import { holdBackYoung } from '../../src/registry/versions/release-age.js';
import type { IndexPlugin } from '../../src/registry/indexes/index-schema.js';

const NOW = new Date('2026-12-04T00:00:00Z');
const entry = (publishedAt?: string) => ({
  tarball: 't.tgz',
  integrity: 'sha512-x',
  ...(publishedAt === undefined ? {} : { publishedAt }),
});
const plugin: IndexPlugin = {
  keywords: [],
  distTags: { latest: '1.2.0' },
  versions: {
    '1.0.0': entry('2026-11-01T00:00:00Z'),
    '1.1.0': entry(),
    '1.2.0': entry('2026-12-03T00:00:00Z'),
  },
};

describe('release age as data', () => {
  it('A15: a version younger than the cooldown and the dist-tag naming it are held back; one without publishedAt is kept', () => {
    const { plugin: gated, held } = holdBackYoung(plugin, { days: 3, now: NOW, from: 'x' });
    expect(Object.keys(gated.versions)).toEqual(['1.0.0', '1.1.0']);
    expect(gated.distTags).toEqual({});
    expect(held).toEqual([{ version: '1.2.0', publishedAt: '2026-12-03T00:00:00Z', ageDays: 1 }]);
  });

  it('A15: the installed version is never held back, and a cooldown of 0 holds nothing', () => {
    expect(holdBackYoung(plugin, { days: 3, now: NOW, from: 'x' }, '1.2.0').held).toEqual([]);
    expect(holdBackYoung(plugin, { days: 0, now: NOW, from: 'x' }).plugin).toBe(plugin);
  });
});
