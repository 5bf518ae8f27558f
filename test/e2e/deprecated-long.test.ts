/**
 * cli.md conventions (a field a registry supplies is printed cut at 1,000 characters): a registry on
 * 127.0.0.1 deprecates a version with a 200 KB message; the warning of `install` and `update` that
 * names it quotes a bounded prefix. The built CLI.
 */
import { describe, expect, it } from 'vitest';
import { publishPlugin } from '../helpers/plugin-registry.js';
import { useRegistryHome } from '../helpers/registry-home.js';

const ctx = useRegistryHome('hookpm-deprecated-long-');
const { ok } = ctx;

const LONG = 'd'.repeat(200_000);

describe('a deprecation message of 200 KB', () => {
  it('install and update print a bounded prefix of it in their warning', async () => {
    await publishPlugin(ctx.acme, 'guard', '1.0.0', undefined, { deprecated: LONG });
    await ok('registry', 'add', 'acme', ctx.acme.url);
    const installed = await ok('install', 'guard@acme', '--yes');
    expect(installed.stderr).toContain('guard@acme 1.0.0 is deprecated: ddd');
    expect(installed.stderr.length).toBeLessThan(2_000);

    await publishPlugin(ctx.acme, 'guard', '1.1.0', undefined, { deprecated: LONG });
    delete ctx.acme.index.plugins['guard']!.versions['1.0.0'];
    const updated = await ok('update', '--yes');
    expect(updated.stdout).toContain('installed guard@acme 1.1.0');
    expect(updated.stderr).toContain('guard@acme 1.1.0 is deprecated: ddd');
    expect(updated.stderr.length).toBeLessThan(2_000);
  });
});
