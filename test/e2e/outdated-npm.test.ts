/**
 * `outdated` and `update` of an npm plugin (docs/guides/installing-plugins.md: `update` skips npm
 * plugins with a message): the message says npm plugins are not checked, never that no registry
 * lists the plugin, and names the install that stays within the recorded range, as `npm update`
 * would, not one that jumps to whatever `latest` is.
 */
import { describe, expect, it } from 'vitest';
import { useQuietNpm } from '../helpers/quiet-npm.js';

const world = useQuietNpm('hookpm-outdated-npm-');

const { hookpm } = world;

describe('outdated and update of an npm plugin', () => {
  it('installing-plugins.md: both name the install within the recorded range; outdated never says no registry lists it', async () => {
    const install = await hookpm('install', 'npm:hookpm-plugin-quiet@~1.0.0', '--yes');
    expect(install.code, install.stderr).toBe(0);
    const fix = '`hookpm install npm:hookpm-plugin-quiet@~1.0.0`';
    const outdated = await hookpm('outdated');
    expect(outdated.stderr).not.toContain('no registry lists it');
    expect(outdated.stderr).toContain(`quiet@npm: npm plugins are not checked yet; run ${fix}`);
    const update = await hookpm('update');
    expect(update.stderr).toContain(
      `quiet@npm: updating npm plugins is not supported yet; run ${fix}`,
    );
    // `update --check` says what it did not check too, not only that the rest is current.
    const check = await hookpm('update', '--check');
    expect(check.stderr).toContain(`quiet@npm: npm plugins are not checked yet; run ${fix}`);
    const json = await hookpm('update', '--check', '--json');
    expect(Object.keys(JSON.parse(json.stdout) as object)).toEqual([
      'schemaVersion',
      'checkedAt',
      'plugins',
    ]);
    expect(json.stderr).toContain('quiet@npm: npm plugins are not checked yet');
  });

  it('installing-plugins.md: an exact version records `^<version>`, as npm does, and that is what both name', async () => {
    for (const spec of ['npm:hookpm-plugin-quiet@1.0.0', 'npm:hookpm-plugin-quiet@v1.0.0']) {
      const install = await hookpm('install', spec, '--yes', '--force');
      expect(install.code, install.stderr).toBe(0);
      const update = await hookpm('update');
      expect(update.stderr, spec).toContain('run `hookpm install npm:hookpm-plugin-quiet@^1.0.0`');
    }
  });

  it('installing-plugins.md: a range that holds a space is quoted for the shell', async () => {
    const install = await hookpm('install', 'npm:hookpm-plugin-quiet@>=1.0.0 <2', '--yes');
    expect(install.code, install.stderr).toBe(0);
    const update = await hookpm('update');
    expect(update.stderr).toContain("run `hookpm install 'npm:hookpm-plugin-quiet@>=1.0.0 <2'`");
  });
});
