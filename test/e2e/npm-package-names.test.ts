/**
 * An npm plugin named as it was installed (`npm:<package>`), as npm takes `npm uninstall <pkg>`:
 * the commands that name an installed plugin find the one installed from that package, whatever
 * its manifest names it; `review npm:<package>` still reviews the package as published.
 */
import { describe, expect, it } from 'vitest';
import { useQuietNpm } from '../helpers/quiet-npm.js';

const world = useQuietNpm('hookpm-npm-package-names-');

const { hookpm } = world;

describe('npm:<package> names the plugin installed from it', () => {
  it('registry.md kind npm: disable, enable and uninstall take npm:<package>; review fetches it', async () => {
    const install = await hookpm('install', 'npm:hookpm-plugin-quiet', '--yes');
    expect(install.code, install.stderr).toBe(0);
    const disable = await hookpm('disable', 'npm:hookpm-plugin-quiet');
    expect(disable.code, disable.stderr).toBe(0);
    const enable = await hookpm('enable', 'npm:hookpm-plugin-quiet', '--yes');
    expect(enable.code, enable.stderr).toBe(0);
    const before = world.npm.requests.length;
    const review = await hookpm('review', 'npm:hookpm-plugin-quiet');
    expect(review.code, review.stderr).toBe(0);
    expect(world.npm.requests.length).toBeGreaterThan(before);
    const uninstall = await hookpm('uninstall', 'npm:hookpm-plugin-quiet');
    expect(uninstall.code, uninstall.stderr).toBe(0);
    const list = await hookpm('list', '--json');
    expect((JSON.parse(list.stdout) as { plugins: unknown[] }).plugins).toEqual([]);
    const again = await hookpm('uninstall', 'npm:hookpm-plugin-quiet');
    expect(again.stderr).toContain('E_NOT_INSTALLED');
  });
});
