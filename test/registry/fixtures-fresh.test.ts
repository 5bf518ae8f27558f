/**
 * The checked-in examples registry (registry-fixtures/index.json, tarballs/, index.html) is
 * generated from registry-fixtures/plugins and history by registry-fixtures/build.mjs; this fails
 * when the checked-in files are stale. Regenerate them with `npm run fixtures`.
 */
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { buildRegistry } from '../../src/ops/registries/build.js';
import { parseIndex } from '../../src/registry/indexes/index-schema.js';
// @ts-expect-error: a plain .mjs script without type declarations
import { fixtureOptions } from '../../registry-fixtures/build.mjs';

const FIXTURES = fileURLToPath(new URL('../../registry-fixtures', import.meta.url));
const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

async function generated(root: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  for (const name of ['index.json', 'index.html'])
    files.set(name, await readFile(join(root, name)));
  for (const name of (await readdir(join(root, 'tarballs'))).sort())
    files.set(`tarballs/${name}`, await readFile(join(root, 'tarballs', name)));
  return files;
}

describe('registry-fixtures (the examples registry)', () => {
  it('is fresh: a rebuild from its sources gives byte-identical index.json, index.html and tarballs (run `npm run fixtures` when this fails)', async () => {
    const out = await mkdtemp(join(tmpdir(), 'hookpm-fixtures-'));
    dirs.push(out);
    await buildRegistry(fixtureOptions(out));
    const fresh = await generated(out);
    const checkedIn = await generated(FIXTURES);
    expect([...checkedIn.keys()]).toEqual([...fresh.keys()]);
    for (const [name, bytes] of fresh) {
      expect(checkedIn.get(name)?.equals(bytes), `${name} is stale`).toBe(true);
    }
  });

  it('I1, Q5: holds six or more plugins, and guard at 1.0.0, 1.1.0, 1.2.0 and 1.3.0; 1.1.0 widens the surface by one handler', async () => {
    const raw: unknown = JSON.parse(await readFile(join(FIXTURES, 'index.json'), 'utf8'));
    const index = parseIndex(raw, 'registry-fixtures/index.json');
    expect(index.name).toBe('examples');
    expect(Object.keys(index.plugins).length).toBeGreaterThanOrEqual(6);
    const guard = index.plugins['guard'];
    expect(Object.keys(guard?.versions ?? {})).toEqual(['1.0.0', '1.1.0', '1.2.0', '1.3.0']);
    expect(guard?.distTags['latest']).toBe('1.3.0');
    expect(guard?.versions['1.0.0']?.surfaceHash).not.toBe(guard?.versions['1.1.0']?.surfaceHash);
    const html = await readFile(join(FIXTURES, 'index.html'), 'utf8');
    expect(html).toContain('Hooks and consent surface · 2 handlers');
    expect(html).toContain('Hooks of 1.0.0');
  });
});
