/**
 * `hookpm search` (docs/reference/rules/cli.md#commands) with a query word longer than a regular
 * expression may be: it is looked for as any other word, never an E_INTERNAL.
 */
import { describe, expect, it } from 'vitest';
import { searchSummaries } from '../../src/registry/indexes/search-index.js';
import { writeRow } from '../../src/registry/indexes/summary-row.js';
import { runBin } from '../helpers/built-bin.js';
import { useBuiltHome } from '../helpers/registry-home.js';

const home = useBuiltHome('hookpm-search-long-');

const LONG = 'Ab'.repeat(25_000);

function summaryOf(description: string): Array<{ registry: string; summary: string[] }> {
  const row = writeRow({
    name: 'guard',
    description,
    keywords: [],
    version: '1.0.0',
    events: ['Stop'],
    deprecated: null,
  });
  return [{ registry: 'acme', summary: [row] }];
}

describe('search with a 50,000-character word', () => {
  it('finds the plugin whose description holds it, in any case, and no other', () => {
    const hits = searchSummaries(summaryOf(`x ${LONG} y`), { query: LONG.toUpperCase() });
    expect(hits.map((h) => h.id)).toEqual(['guard@acme']);
    expect(searchSummaries(summaryOf(`x ${LONG.slice(1)} y`), { query: LONG })).toEqual([]);
  });

  it('`hookpm search <word>` answers "no plugins match", not E_INTERNAL', async () => {
    const run = await runBin(['search', LONG], { env: home.env, cwd: home.dir });
    expect(run.stderr).not.toContain('E_INTERNAL');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('no plugins match\n');
  });
});
