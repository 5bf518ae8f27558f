/**
 * cli.md conventions (a message names what was found, and stays short): a range given to
 * `install` is recorded as long as it was given, and `update` and `outdated` quote a bounded prefix
 * of it, whatever the registry serves later. The built CLI, a registry on 127.0.0.1.
 */
import { describe, expect, it } from 'vitest';
import { publishPlugin } from '../helpers/plugin-registry.js';
import { useRegistryHome } from '../helpers/registry-home.js';

const ctx = useRegistryHome('hookpm-long-range-');
const { hookpm, ok } = ctx;

/** A valid range of about 80,000 characters. */
const RANGE = `${'^1.0.0 || '.repeat(8_000)}1.0.0`;

describe('a recorded range of 80,000 characters', () => {
  it('update (current, moved backwards, no match) and outdated quote a bounded prefix of it', async () => {
    await publishPlugin(ctx.acme, 'guard', '1.0.0');
    await publishPlugin(ctx.acme, 'guard', '1.1.0');
    await ok('registry', 'add', 'acme', ctx.acme.url);
    await ok('install', `guard@acme@${RANGE}`, '--yes');
    await publishPlugin(ctx.acme, 'guard', '1.2.0');
    const outdated = await hookpm(['outdated']);
    expect(outdated.stdout).toContain('guard@acme');
    expect(outdated.stdout.length).toBeLessThan(2_000);
    await ok('update', '--yes');

    const current = await ok('update');
    expect(current.stderr).toContain('is the newest version in ^1.0.0 ||');
    expect(current.stderr.length).toBeLessThan(2_000);

    const plugin = ctx.acme.index.plugins['guard']!;
    plugin.versions = {};
    plugin.distTags = {};
    await publishPlugin(ctx.acme, 'guard', '3.0.0');
    for (const args of [
      ['update'],
      ['update', 'guard'],
      ['update', 'guard', '--allow-downgrade'],
    ]) {
      const run = await hookpm(args);
      expect(run.stderr, args.join(' ')).toContain('^1.0.0 ||');
      expect(run.stderr.length, args.join(' ')).toBeLessThan(2_000);
    }
  });
});
