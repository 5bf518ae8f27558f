/**
 * docs/guides/projects.md (`hookpm outdated`): an index that no longer lists the installed version
 * (it moved backwards) is said on stderr, as `hookpm update` warns of it, not reported as
 * "everything is up to date" alone. The built CLI, a registry on 127.0.0.1.
 */
import { describe, expect, it } from 'vitest';
import { publishPlugin } from '../helpers/plugin-registry.js';
import { useRegistryHome } from '../helpers/registry-home.js';

const ctx = useRegistryHome('hookpm-outdated-backwards-');
const { hookpm, ok } = ctx;

describe('outdated against an index that moved backwards', () => {
  it('an installed version the index no longer lists gets a note naming it and the newest listed', async () => {
    await publishPlugin(ctx.acme, 'guard', '1.0.0');
    await publishPlugin(ctx.acme, 'guard', '1.1.0');
    await ok('registry', 'add', 'acme', ctx.acme.url);
    await ok('install', 'guard@acme', '--yes');
    const plugin = ctx.acme.index.plugins['guard']!;
    delete plugin.versions['1.1.0'];
    plugin.distTags = { latest: '1.0.0' };
    const run = await hookpm(['outdated']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('everything is up to date');
    expect(run.stderr).toContain(
      'guard@acme: the index of acme moved backwards: 1.1.0 is installed, but it no longer lists it (newest: 1.0.0)',
    );
    const json = JSON.parse((await hookpm(['outdated', '--json'])).stdout) as { notes: string[] };
    expect(json.notes).toEqual([expect.stringContaining('moved backwards')]);
  });

  it('a plugin no registry could be read for is not called up to date: the count is said, the ids are in unchecked', async () => {
    await publishPlugin(ctx.acme, 'guard', '1.0.0');
    await ok('registry', 'add', 'acme', ctx.acme.url);
    await ok('install', 'guard@acme', '--yes');
    await ok('registry', 'remove', 'acme');
    const run = await hookpm(['outdated']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).not.toContain('up to date');
    expect(run.stdout).toBe('no newer version found; 1 plugin could not be checked\n');
    expect(run.stderr).toContain('guard@acme: no registry lists it; it cannot be checked');
    const json = JSON.parse((await hookpm(['outdated', '--json'])).stdout) as object;
    expect(json).toMatchObject({ plugins: [], unchecked: ['guard@acme'] });
  });
});
