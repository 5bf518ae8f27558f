/**
 * security.md Z4 through the built `bin/hookpm`: `enable --confine <spec>` refuses a spec it cannot
 * read with E_USAGE quoting a bounded prefix of it (nothing hookpm prints grows with its input), and
 * one that gives a key twice, which has no one reading.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { publishPlugin } from '../helpers/plugin-registry.js';
import { useRegistryHome } from '../helpers/registry-home.js';

const ctx = useRegistryHome('hookpm-confine-flag-');
const { hookpm, ok } = ctx;

const stateBytes = () => readFileSync(join(ctx.home.env.HOOKPM_HOME!, 'data', 'state.json'));

describe('enable --confine', () => {
  it('Z4: a spec of 100 KB is E_USAGE quoting a bounded prefix of it; the state unchanged', async () => {
    await publishPlugin(ctx.acme, 'guard', '1.0.0');
    await ok('registry', 'add', 'acme', ctx.acme.url);
    await ok('install', 'guard@acme', '--yes');
    const before = stateBytes();
    for (const spec of ['x'.repeat(100_000), `network=false,write=${'y'.repeat(100_000)}`]) {
      const run = await hookpm(['enable', 'guard', '--confine', spec]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('E_USAGE');
      expect(run.stderr.length).toBeLessThan(2_000);
    }
    expect(stateBytes()).toEqual(before);
  });

  it('Z4: a key given twice (network=false,network=true) is E_USAGE naming it; nothing recorded', async () => {
    await publishPlugin(ctx.acme, 'guard', '1.0.0');
    await ok('registry', 'add', 'acme', ctx.acme.url);
    await ok('install', 'guard@acme', '--yes');
    const before = stateBytes();
    for (const spec of ['network=false,network=true', 'network=false,write=data,write=tmp']) {
      const run = await hookpm(['enable', 'guard', '--confine', spec]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('E_USAGE');
      expect(run.stderr).toContain('is given twice');
    }
    expect(stateBytes()).toEqual(before);
  });
});
