/**
 * cli.md conventions (an error says what was expected, with a fix): `hookpm update` takes plugin
 * names or ids; one with a range or tag after it (`semv@2`, as `pnpm update` takes) is a usage
 * error naming the range the plugin follows and the `install` that moves it to another, and the
 * store is unchanged. The built CLI, a registry on 127.0.0.1.
 */
import { describe, expect, it } from 'vitest';
import { publishPlugin } from '../helpers/plugin-registry.js';
import { useRegistryHome } from '../helpers/registry-home.js';

const ctx = useRegistryHome('hookpm-update-names-');
const { hookpm, ok } = ctx;

describe('update <name>@<range>', () => {
  it('is E_USAGE naming the recorded range and `hookpm install <id>@<range>`; nothing changes', async () => {
    await publishPlugin(ctx.acme, 'semv', '1.0.0');
    await publishPlugin(ctx.acme, 'semv', '2.0.0');
    await ok('registry', 'add', 'acme', ctx.acme.url);
    await ok('install', 'semv@^1', '--yes');
    const before = await ctx.store();
    for (const spec of ['semv@2', 'semv@acme@latest']) {
      const run = await hookpm(['update', spec, '--yes']);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(
        `error[E_USAGE]: update takes plugin names or ids, not "${spec}": it stays within the range semv@acme was installed with (^1)`,
      );
      expect(run.stderr).toContain(`hookpm install semv@acme@${spec.split('@').pop()}`);
    }
    expect(await ctx.store()).toEqual(before);
    const unknown = await hookpm(['update', 'nope@2']);
    expect(unknown.stderr).toContain('E_NOT_INSTALLED');
  });
});
