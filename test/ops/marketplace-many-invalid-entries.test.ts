/**
 * registry.md "Registry kinds" (a marketplace) with security.md (nothing hookpm prints or keeps grows
 * without bound with its input): a catalog of thousands of invalid entries is added with its valid
 * entry; `registry add` warns of the first MAX_EXCLUDED left-out entries and counts the rest in
 * one line, and the cached catalog keeps no more. Real directories, the built CLI.
 */
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_EXCLUDED } from '../../src/registry/marketplace/marketplace-schema.js';
import { resolveStorePaths } from '../../src/store/paths.js';
import { ensureBuilt, runBin } from '../helpers/built-bin.js';
import { localMarketplace } from '../helpers/local-marketplace.js';

const INVALID = 5_000;

let root: string;
let market: string;
let env: Record<string, string>;

beforeAll(async () => {
  ensureBuilt();
  const plugins = [
    { name: 'good', source: './plugins/good' },
    ...Array.from({ length: INVALID }, (_, i) => (i % 2 === 0 ? 1 : { name: `bad-${i}` })),
  ] as Array<Record<string, unknown>>;
  ({ root, market, env } = await localMarketplace('hookpm-mkt-many-', plugins, {
    'plugins/good/plugin.json': JSON.stringify({ name: 'good', version: '1.0.0' }),
  }));
}, 120_000);
afterAll(() => rm(root, { recursive: true, force: true }));

describe('a marketplace of 5,000 invalid entries', () => {
  it('1: `registry add` warns of the first entries and counts the rest; the cached catalog stays small', async () => {
    const added = await runBin(['registry', 'add', 'mkt', market], { env, cwd: root });
    expect(added.code, added.stderr.slice(0, 500)).toBe(0);
    expect(added.stdout).toContain('1 plugin(s)');
    const warnings = added.stderr.trim().split('\n');
    expect(warnings).toHaveLength(MAX_EXCLUDED + 1);
    expect(warnings[0]).toContain('plugins[1]');
    expect(warnings[MAX_EXCLUDED]).toContain(`and ${INVALID - MAX_EXCLUDED} more entries`);
    expect(warnings[MAX_EXCLUDED]).toContain('hookpm validate');
    const cache = join(resolveStorePaths(env).cache, 'indexes');
    for (const name of await readdir(cache))
      expect((await stat(join(cache, name))).size).toBeLessThan(100_000);
  });
});
