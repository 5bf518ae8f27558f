import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readPluginDir } from '../../src/store/read-plugin.js';
import { makeTempDir, removeDir } from '../helpers/hook-fixtures.js';

// plugins.md G5: Codex's and Cursor's manifests beside the root one and Claude Code's.

const dir = makeTempDir('read-plugin-manifests');
afterAll(() => removeDir(dir));
let n = 0;

async function pluginWith(files: Record<string, unknown>): Promise<string> {
  n += 1;
  const root = join(dir, `p${n}`);
  for (const [file, value] of Object.entries(files)) {
    await mkdir(dirname(join(root, file)), { recursive: true });
    await writeFile(join(root, file), JSON.stringify(value));
  }
  return root;
}

const hooks = (command: string) => ({
  hooks: { Stop: [{ hooks: [{ type: 'command', command }] }] },
});

describe('several manifests (plugins.md G5)', () => {
  it('G5: a .codex-plugin/plugin.json alone names the plugin and declares its hooks', async () => {
    const root = await pluginWith({
      '.codex-plugin/plugin.json': { name: 'cx', version: '2.0.0', hooks: './codex-hooks.json' },
      'codex-hooks.json': hooks('codex'),
    });
    const plugin = await readPluginDir(root);
    expect([plugin.name, plugin.version, plugin.manifestFile]).toEqual([
      'cx',
      '2.0.0',
      '.codex-plugin/plugin.json',
    ]);
    expect(plugin.documents.map((d) => d.source)).toEqual(['./codex-hooks.json']);
  });

  it("G5: a .cursor-plugin/plugin.json alone names the plugin; its hooks (Cursor's format) are not read, with a warning, and hooks/hooks.json loads", async () => {
    const root = await pluginWith({
      '.cursor-plugin/plugin.json': { name: 'cu', hooks: './hooks/hooks-cursor.json' },
      'hooks/hooks.json': hooks('claude'),
    });
    const plugin = await readPluginDir(root);
    expect(plugin.name).toBe('cu');
    expect(plugin.documents.map((d) => d.source)).toEqual(['hooks/hooks.json']);
    expect(plugin.diagnostics).toEqual([
      expect.objectContaining({
        code: 'ignored_manifest',
        path: '.cursor-plugin/plugin.json:hooks',
      }),
    ]);
  });

  it("G5: precedence: the first found of plugin.json, .claude-plugin, .codex-plugin, .cursor-plugin names the plugin; Claude Code's declares the hooks; differences are warned", async () => {
    const root = await pluginWith({
      '.claude-plugin/plugin.json': { name: 'multi', version: '1.0.0', hooks: './claude.json' },
      '.codex-plugin/plugin.json': { name: 'multi', version: '1.1.0', hooks: './codex.json' },
      '.cursor-plugin/plugin.json': { name: 'multi-cursor' },
      'claude.json': hooks('claude'),
      'codex.json': hooks('codex'),
    });
    const plugin = await readPluginDir(root);
    expect([plugin.name, plugin.version, plugin.manifestFile, plugin.hooksManifestFile]).toEqual([
      'multi',
      '1.0.0',
      '.claude-plugin/plugin.json',
      '.claude-plugin/plugin.json',
    ]);
    expect(plugin.documents.map((d) => d.source)).toEqual(['./claude.json']);
    expect(plugin.diagnostics.map((d) => d.path)).toEqual([
      '.codex-plugin/plugin.json:hooks',
      '.codex-plugin/plugin.json:version',
      '.cursor-plugin/plugin.json:name',
    ]);
  });

  it('G5: a root plugin.json beside a .codex-plugin/plugin.json: the root names the plugin and declares the hooks', async () => {
    const root = await pluginWith({
      'plugin.json': { name: 'r', hooks: './root.json' },
      '.codex-plugin/plugin.json': { name: 'r' },
      'root.json': hooks('root'),
    });
    const plugin = await readPluginDir(root);
    expect(plugin.hooksManifestFile).toBe('plugin.json');
    expect(plugin.documents.map((d) => d.source)).toEqual(['./root.json']);
    expect(plugin.diagnostics).toEqual([]);
  });
});
