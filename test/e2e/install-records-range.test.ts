/**
 * docs/design/decisions.md (recorded ranges), registry.md V2: `install name@range` records the
 * range `update` stays within, also when it picks the version already installed (the files
 * unchanged), as npm saves the spec of such an install. The built CLI, a registry on 127.0.0.1.
 */
import { describe, expect, it } from 'vitest';
import { publishPlugin } from '../helpers/plugin-registry.js';
import { useRegistryHome } from '../helpers/registry-home.js';

const ctx = useRegistryHome('hookpm-install-records-range-');
const { ok } = ctx;

const record = () => ctx.record('semv@acme');

describe('install of the installed version under another range', () => {
  it('V2: records the new range, so update stays within it', async () => {
    await publishPlugin(ctx.acme, 'semv', '1.5.0');
    await ok('registry', 'add', 'acme', ctx.acme.url);
    await ok('install', 'semv@x', '--yes');
    const narrowed = await ok('install', 'semv@~1.5.0', '--yes');
    expect(narrowed.stdout).toContain('unchanged semv@acme 1.5.0');
    expect(record()).toMatchObject({ version: '1.5.0', range: '~1.5.0' });
    await publishPlugin(ctx.acme, 'semv', '1.5.1', undefined, { latest: false });
    await publishPlugin(ctx.acme, 'semv', '2.0.0');
    await ok('update', '--yes');
    expect(record()).toMatchObject({ version: '1.5.1', range: '~1.5.0' });
  });
});
