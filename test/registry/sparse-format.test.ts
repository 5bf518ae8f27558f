/**
 * The sparse root document read strictly (registry.md N6; docs/reference/registry-format.md): its
 * `pluginCount` is a count `registry add` and `registry list` show, a safe non-negative integer.
 */
import { describe, expect, it } from 'vitest';
import { parseRoot } from '../../src/registry/sparse/sparse-format.js';

const root = (pluginCount: unknown) => ({
  formatVersion: 1,
  layout: 'sparse',
  plugins: 'plugins/',
  search: 'search/index.json',
  pluginCount,
});

describe('the sparse root document (N6)', () => {
  it.each([[1e300], [2 ** 53], [-1], [1.5], ['3'], [null]])(
    'N6: a pluginCount of %s is E_REGISTRY_SCHEMA',
    (count) => {
      expect(() => parseRoot(root(count), 'https://r.example/registry.json')).toThrow(
        expect.objectContaining({
          code: 'E_REGISTRY_SCHEMA',
          message: expect.stringContaining('pluginCount is not a non-negative integer'),
        }),
      );
    },
  );

  it('N6: a pluginCount of 0 or 1,000,000 is read as given', () => {
    for (const count of [0, 1_000_000]) expect(parseRoot(root(count), 'r').pluginCount).toBe(count);
  });
});
