/**
 * security.md (one clear message; the catalog is the attacker here) with registry.md section 1
 * (kind marketplace): an entry whose source path or URL is 200 KB long is left out naming the
 * entry, and every message of `registry add`, `install` and `validate` about it quotes a bounded
 * prefix of the field, never the field whole; the store is byte-identical after the refusal.
 * Real directories, the built CLI.
 */
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runBin } from '../helpers/built-bin.js';
import { localMarketplace, refusedInstall } from '../helpers/local-marketplace.js';

const LONG = 'a'.repeat(200_000);
/** Far below the field, far above any message a refusal needs. */
const BOUND = 2_000;

const ENTRIES: Record<string, unknown> = {
  climbing: `./../${LONG}`,
  missing: `./${LONG}`,
  deep: `./${Array<string>(50_000).fill('abc').join('/')}`,
  'https-long': { source: 'url', url: `https://example.com/${LONG}` },
  'plain-http': { source: 'url', url: `http://example.com/${LONG}` },
  helper: { source: 'url', url: `x::${LONG}` },
  scheme: { source: 'url', url: `gopher://example.com/${LONG}` },
  'file-host': { source: 'url', url: `file://example.com/${LONG}` },
  'npm-http': { source: 'npm', package: 'x', registry: `http://example.com/${LONG}` },
  'npm-unparsed': { source: 'npm', package: 'x', registry: `http://[${LONG}` },
};

let market: string;
let root: string;
let env: Record<string, string>;

beforeAll(async () => {
  ensureBuilt();
  const plugins = Object.entries(ENTRIES).map(([name, source]) => ({ name, source }));
  ({ root, market, env } = await localMarketplace('hookpm-mkt-long-', plugins));
}, 120_000);
afterAll(() => rm(root, { recursive: true, force: true }));

describe('a marketplace entry with a 200 KB source field', () => {
  it('1: `registry add` warns of each entry, naming it, each warning bounded', async () => {
    const added = await runBin(['registry', 'add', 'mkt', market], { env, cwd: root });
    expect(added.code, added.stderr.slice(0, 500)).toBe(0);
    const warnings = added.stderr.trim().split('\n');
    expect(warnings).toHaveLength(Object.keys(ENTRIES).length);
    for (const name of Object.keys(ENTRIES))
      expect(warnings.some((line) => line.includes(name))).toBe(true);
    for (const line of warnings) expect(line.length).toBeLessThan(BOUND);
  });

  it.each(Object.keys(ENTRIES))(
    '1: `install %s` names the entry in a bounded message; the store is byte-identical',
    async (name) => {
      const run = await refusedInstall({ root, env }, name);
      expect(run.stderr).toContain(`error[E_REGISTRY_SCHEMA]: ${name}@mkt`);
      expect(run.stderr.length).toBeLessThan(BOUND);
    },
  );

  it('1: `validate` reports each entry in a bounded line', async () => {
    const run = await runBin(['validate', market], { env, cwd: root });
    const lines = `${run.stdout}${run.stderr}`.trim().split('\n');
    for (const name of Object.keys(ENTRIES))
      expect(lines.some((line) => line.includes(`("${name}")`))).toBe(true);
    for (const line of lines) expect(line.length).toBeLessThan(BOUND);
  });
});
