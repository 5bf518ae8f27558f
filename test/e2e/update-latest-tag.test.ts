/**
 * registry.md V2: install takes the `latest` dist-tag when it satisfies the range (as npm does),
 * and `update` moves no higher than it, so an update right after an install of the same range
 * changes nothing, and `outdated` shows no newer version in range. The built CLI, a registry on
 * 127.0.0.1.
 */
import { describe, expect, it } from 'vitest';
import { publishPlugin } from '../helpers/plugin-registry.js';
import { useRegistryHome } from '../helpers/registry-home.js';

const ctx = useRegistryHome('hookpm-update-latest-tag-');
const { hookpm, ok } = ctx;

const installedVersion = () => ctx.record('semv@acme').version;

describe('update against a `latest` dist-tag below the highest version', () => {
  it('V2: install and update both stop at `latest`; a newer `latest` is followed', async () => {
    for (const v of ['1.0.0', '1.1.0', '1.2.0'])
      await publishPlugin(ctx.acme, 'semv', v, undefined, { latest: false });
    ctx.acme.index.plugins['semv']!.distTags = { latest: '1.1.0' };
    await ok('registry', 'add', 'acme', ctx.acme.url);
    await ok('install', 'semv@^1.0.0', '--yes');
    expect(installedVersion()).toBe('1.1.0');

    const update = await ok('update', '--yes');
    expect(update.stderr).toContain('semv@acme 1.1.0 is the newest version in ^1.0.0');
    expect(installedVersion()).toBe('1.1.0');

    ctx.acme.index.plugins['semv']!.distTags = { latest: '1.2.0' };
    await ok('update', '--yes');
    expect(installedVersion()).toBe('1.2.0');
  });
});
