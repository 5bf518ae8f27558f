/**
 * registry.md V2: a prerelease installed by name (`semv@1.1.0-beta.1`, recorded as
 * `^1.1.0-beta.1`) is updated as npm updates that range: to the release of its version, not to a
 * prerelease of a later one. The built CLI, a registry on 127.0.0.1 changed between commands.
 */
import { describe, expect, it } from 'vitest';
import { publishPlugin } from '../helpers/plugin-registry.js';
import { useRegistryHome } from '../helpers/registry-home.js';

const ctx = useRegistryHome('hookpm-update-prerelease-');
const { ok } = ctx;

const installedVersion = () => ctx.record('semv@acme').version;

describe('update of a prerelease installed by name', () => {
  it('V2: moves to the release of its version, not to a prerelease of the next', async () => {
    await publishPlugin(ctx.acme, 'semv', '1.0.0');
    await publishPlugin(ctx.acme, 'semv', '1.1.0-beta.1', undefined, { latest: false });
    await ok('registry', 'add', 'acme', ctx.acme.url);
    await ok('install', 'semv@1.1.0-beta.1', '--yes');
    for (const v of ['1.1.0', '1.2.0-alpha.1'])
      await publishPlugin(ctx.acme, 'semv', v, undefined, { latest: false });
    await ok('update', '--yes');
    expect(installedVersion()).toBe('1.1.0');
  });
});
