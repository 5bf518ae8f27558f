/**
 * docs/guides/projects.md (`hookpm outdated`), docs/reference/cli-json.md (`outdated`): a plugin is
 * outdated, and `update --check` announces it, only when `hookpm update` would install a newer
 * version (registry.md V2: the `latest` dist-tag caps, a deprecated version comes last, nothing
 * lower than the installed one). The built CLI, a registry on 127.0.0.1 changed between commands.
 */
import { describe, expect, it } from 'vitest';
import { publishPlugin } from '../helpers/plugin-registry.js';
import { useRegistryHome } from '../helpers/registry-home.js';

const ctx = useRegistryHome('hookpm-outdated-update-target-');
const { hookpm, ok } = ctx;

interface Row {
  inRange: string | null;
  outdated: boolean;
  newer: boolean;
}

async function installOneAt(versions: string[], latest: string): Promise<void> {
  for (const v of versions) await publishPlugin(ctx.acme, 'semv', v, undefined, { latest: false });
  ctx.acme.index.plugins['semv']!.distTags = { latest };
  await ok('registry', 'add', 'acme', ctx.acme.url);
  await ok('install', 'semv@^1.0.0', '--yes');
}

/** What `update --check` records as waiting. */
async function announced(): Promise<unknown[]> {
  const checked = await ok('update', '--check', '--json');
  return (JSON.parse(checked.stdout) as { plugins: unknown[] }).plugins;
}

describe('outdated and update --check name what update would install', () => {
  it('an index that moved backwards within the range offers a lower version: not outdated, nothing announced', async () => {
    await installOneAt(['1.0.0', '1.1.0', '1.2.0'], '1.2.0');
    const plugin = ctx.acme.index.plugins['semv']!;
    delete plugin.versions['1.2.0'];
    plugin.distTags = { latest: '1.1.0' };
    const outdated = await hookpm(['outdated', '--all', '--json']);
    expect((JSON.parse(outdated.stdout) as { plugins: Row[] }).plugins).toEqual([
      expect.objectContaining({ inRange: '1.1.0', outdated: false, newer: false }),
    ]);
    expect(outdated.code).toBe(0);
    expect(await announced()).toEqual([]);
  });

  it('a newer deprecated version, or one above the `latest` dist-tag, is not what update installs', async () => {
    await installOneAt(['1.0.0', '1.1.0'], '1.0.0');
    ctx.acme.index.plugins['semv']!.versions['1.1.0']!.deprecated = 'broken';
    expect(await announced()).toEqual([]);
    delete ctx.acme.index.plugins['semv']!.versions['1.1.0']!.deprecated;
    expect(await announced()).toEqual([]);
    ctx.acme.index.plugins['semv']!.distTags = { latest: '1.1.0' };
    expect(await announced()).toEqual([
      { id: 'semv@acme', installed: '1.0.0', available: '1.1.0' },
    ]);
  });
});
