import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { validate } from '../../src/ops/validate/validate.js';
import { cmd, makeWorld, pluginFiles, type World } from './plugin-fixture.js';

let world: World;
beforeEach(async () => {
  world = await makeWorld();
});
afterEach(() => world.cleanup());

describe('hookpm validate <plugin dir>', () => {
  it('P2: a plugin directory is kind "plugin"; unknown manifest fields are warnings, never errors', async () => {
    const dir = await world.plugin('ok', {
      ...pluginFiles('ok', '1.0.0', { PreToolUse: [cmd('echo p')], Stop: [cmd('echo s')] }),
      'plugin.json': { json: { name: 'ok', version: '1.0.0', mcpServers: {} } },
    });
    const report = await validate({ path: dir, strict: false });
    expect(report).toMatchObject({ ok: true, kind: 'plugin', events: ['PreToolUse', 'Stop'] });
    expect(report.diagnostics).toEqual([
      expect.objectContaining({
        severity: 'warning',
        code: 'unknown_key',
        path: 'plugin.json:mcpServers',
      }),
    ]);
    expect((await validate({ path: dir, strict: true })).ok).toBe(false);
  });

  it('P4: invalid JSON in a hooks document is an error naming the file with its position', async () => {
    const dir = await world.plugin('bad', {
      'plugin.json': { json: { name: 'bad' } },
      'hooks/hooks.json': '{"hooks": {,}}',
    });
    const report = await validate({ path: dir, strict: false });
    expect(report.ok).toBe(false);
    expect(report.diagnostics).toContainEqual(
      expect.objectContaining({
        severity: 'error',
        path: 'hooks/hooks.json',
        message: expect.stringMatching(/hooks\/hooks\.json:1:\d+/),
      }),
    );
  });

  it('I1, P2: a version semver accepts but does not write so is a warning naming how pack wants it', async () => {
    const files = pluginFiles('vee', '1.0.0', { PreToolUse: [cmd('echo p')] });
    const messages: Record<string, string | undefined> = {};
    for (const version of ['v1.0.0', '1.0.0+build', '1.0.0']) {
      const dir = await world.plugin(`vee-${version}`, {
        ...files,
        'plugin.json': { json: { name: 'vee', version } },
      });
      const report = await validate({ path: dir, strict: false });
      expect(report.ok).toBe(true);
      messages[version] = report.diagnostics.find(
        (d) => d.code === 'unpublishable_version',
      )?.message;
      if (version !== '1.0.0') {
        expect(report.diagnostics).toContainEqual(
          expect.objectContaining({ severity: 'warning', path: 'plugin.json:version' }),
        );
        expect((await validate({ path: dir, strict: true })).ok).toBe(false);
      }
    }
    expect(messages['v1.0.0']).toMatch(/"v1\.0\.0" .*`hookpm pack` refuses it; write "1\.0\.0"/);
    expect(messages['1.0.0+build']).toMatch(/write "1\.0\.0"/);
    expect(messages['1.0.0']).toBeUndefined();
  });

  it('H5, registry.md A2: a symlink leaving the plugin or dangling, which install and pack refuse, is an error naming it', async () => {
    for (const [link, target] of [
      ['outside.txt', '/etc/hostname'],
      ['dangling.sh', 'no-such-file'],
    ] as const) {
      const dir = await world.plugin(`links-${link.length}`, {
        ...pluginFiles('links', '1.0.0', { PreToolUse: [cmd('echo p')] }),
      });
      await symlink(target, join(dir, link));
      const report = await validate({ path: dir, strict: false });
      expect(report.ok, link).toBe(false);
      expect(report.diagnostics).toContainEqual(
        expect.objectContaining({
          severity: 'error',
          code: 'plugin_tree_invalid',
          path: link,
          message: expect.stringContaining(link),
        }),
      );
    }
  });
});
