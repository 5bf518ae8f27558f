import { link } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isHookpmError } from '../../src/errors.js';
import { hasErrors } from '../../src/plugin/loaded-plugin.js';
import { copyPluginTree } from '../../src/store/copy-tree.js';
import { readPluginDir } from '../../src/store/read-plugin.js';
import { hooksDoc, tempDir, writeTree, type TreeFile } from './plugin-tree.js';

let base: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir: base, cleanup } = await tempDir());
});
afterEach(() => cleanup());

async function plugin(files: Record<string, TreeFile>, opts = {}) {
  const root = join(base, 'guard');
  await writeTree(root, files);
  return readPluginDir(root, opts);
}

const codes = (p: { diagnostics: Array<{ code: string; severity: string }> }) =>
  p.diagnostics.map((d) => `${d.severity}:${d.code}`);
const eventsOf = (p: { documents: Array<{ config: object | null }> }) =>
  p.documents.map((d) => (d.config === null ? null : Object.keys(d.config)));

describe('readPluginDir: manifest', () => {
  it('P1, G5: plugin.json in the root gives the name and version; a different name or version in .claude-plugin/plugin.json is a warning naming both', async () => {
    const p = await plugin({
      'plugin.json': { json: { name: 'root-one', version: '2.0.0' } },
      '.claude-plugin/plugin.json': { json: { name: 'dot-one', version: '1.0.0' } },
    });
    expect([p.name, p.version, p.manifestFile]).toEqual(['root-one', '2.0.0', 'plugin.json']);
    expect(p.diagnostics).toMatchObject([
      { code: 'ignored_manifest', severity: 'warning', path: '.claude-plugin/plugin.json:name' },
      { code: 'ignored_manifest', severity: 'warning', path: '.claude-plugin/plugin.json:version' },
    ]);
    expect(p.diagnostics[1]!.message).toBe(
      `.claude-plugin/plugin.json:version "1.0.0" differs from plugin.json:version "2.0.0"; hookpm uses plugin.json's, the first manifest found`,
    );
  });

  it('G5: with a root plugin.json beside it, the hooks path of .claude-plugin/plugin.json is loaded (aws-core of the corpus)', async () => {
    const p = await plugin({
      'plugin.json': {
        json: {
          name: 'guard',
          version: '1.0.0',
          extensions: { 'com.anthropic.claude-code': { hooks: './cc/hooks/hooks.json' } },
        },
      },
      '.claude-plugin/plugin.json': {
        json: { name: 'guard', version: '1.0.0', hooks: './cc/hooks/hooks.json' },
      },
      'cc/hooks/hooks.json': hooksDoc('PreToolUse'),
    });
    expect([p.manifestFile, p.hooksManifestFile]).toEqual([
      'plugin.json',
      '.claude-plugin/plugin.json',
    ]);
    expect(p.documents.map((d) => d.source)).toEqual(['./cc/hooks/hooks.json']);
    expect(eventsOf(p)).toEqual([['PreToolUse']]);
    expect(codes(p).filter((c) => !c.endsWith('unknown_key'))).toEqual([]);
    expect(hasErrors(p)).toBe(false);
  });

  it('G5: inline hooks in .claude-plugin/plugin.json load too; hooks only in the root plugin.json are not loaded, with a warning naming both files', async () => {
    const inline = await plugin({
      'plugin.json': { json: { name: 'guard', hooks: { Stop: [] } } },
      '.claude-plugin/plugin.json': {
        json: { name: 'guard', hooks: hooksDoc('SessionStart').json },
      },
    });
    expect(eventsOf(inline)).toEqual([['SessionStart']]);
    expect(inline.manifest).not.toHaveProperty('hooks');
    expect(inline.diagnostics).toMatchObject([
      { code: 'ignored_manifest', severity: 'warning', path: 'plugin.json:hooks' },
    ]);
    expect(inline.diagnostics[0]!.message).toContain(
      'plugin.json:hooks is not loaded: .claude-plugin/plugin.json is the Claude Code manifest and declares the hooks (.claude-plugin/plugin.json:hooks)',
    );
    await cleanup();
    ({ dir: base, cleanup } = await tempDir());
    const rootOnly = await plugin({
      'plugin.json': { json: { name: 'guard', hooks: './extra.json' } },
      '.claude-plugin/plugin.json': { json: { name: 'guard' } },
      'extra.json': hooksDoc('Stop'),
      'hooks/hooks.json': hooksDoc('SessionStart'),
    });
    expect(eventsOf(rootOnly)).toEqual([['SessionStart']]);
    expect(rootOnly.diagnostics).toMatchObject([
      { code: 'ignored_manifest', severity: 'warning', path: 'plugin.json:hooks' },
    ]);
    expect(rootOnly.diagnostics[0]!.message).toContain('(none besides hooks/hooks.json)');
  });

  it('G5, P4: a broken .claude-plugin/plugin.json beside a root plugin.json is an error, never skipped', async () => {
    const p = await plugin({
      'plugin.json': { json: { name: 'guard', version: '1.0.0' } },
      '.claude-plugin/plugin.json': '{"name": "guard", "hooks": "./h.json",}',
    });
    expect(hasErrors(p)).toBe(true);
    expect(p.diagnostics).toMatchObject([
      { code: 'invalid_manifest', severity: 'error', path: '.claude-plugin/plugin.json' },
    ]);
    expect(p.name).toBe('guard');
  });

  it('P1: .claude-plugin/plugin.json is the manifest when there is no root plugin.json', async () => {
    const p = await plugin({
      '.claude-plugin/plugin.json': { json: { name: 'dot-one', description: 'd' } },
    });
    expect([p.name, p.version, p.description, p.manifestFile]).toEqual([
      'dot-one',
      null,
      'd',
      '.claude-plugin/plugin.json',
    ]);
    expect(p.diagnostics).toEqual([]);
  });

  it('P1: without a manifest the name is the fallback name, else the directory name', async () => {
    const p = await plugin({ 'hooks/hooks.json': hooksDoc('Stop') });
    expect([p.name, p.manifest, p.manifestFile]).toEqual(['guard', null, null]);
    expect((await readPluginDir(p.root, { fallbackName: 'from-market' })).name).toBe('from-market');
  });

  it('P1: claude-plugin/plugin.json (no dot) is not a manifest, and a warning says so', async () => {
    const p = await plugin({
      'claude-plugin/plugin.json': { json: { name: 'custom', hooks: './custom/hooks.json' } },
      'custom/hooks.json': hooksDoc('Stop'),
    });
    expect(p.manifest).toBeNull();
    expect(p.name).toBe('guard');
    expect(p.documents).toEqual([]);
    expect(p.diagnostics).toMatchObject([
      { code: 'ignored_manifest', severity: 'warning', path: 'claude-plugin/plugin.json' },
    ]);
    expect(p.diagnostics[0]!.message).toContain('.claude-plugin/');
  });

  it('P2: unknown manifest fields are warnings, never errors', async () => {
    const p = await plugin({
      'plugin.json': { json: { name: 'guard', skills: './skills', agents: [] } },
    });
    expect(codes(p)).toEqual(['warning:unknown_key', 'warning:unknown_key']);
    expect(hasErrors(p)).toBe(false);
  });

  it('P3: an unsafe manifest name is an error', async () => {
    const p = await plugin({ 'plugin.json': { json: { name: '../x' } } });
    expect(p.diagnostics).toMatchObject([
      { code: 'invalid_plugin_name', severity: 'error', path: 'plugin.json:name' },
    ]);
  });

  it('P3: an invalid manifest name of any length is quoted cut, never whole', async () => {
    const p = await plugin({ 'plugin.json': { json: { name: 'n'.repeat(200_000) } } });
    const [problem] = p.diagnostics;
    expect(problem).toMatchObject({ code: 'invalid_plugin_name', severity: 'error' });
    expect(problem!.message).toContain(`"${'n'.repeat(200)}..."`);
    expect(problem!.message.length).toBeLessThan(1000);
  });

  it('P3: a directory name that is not a valid name is an error when there is no manifest', async () => {
    const root = join(base, 'Upper Case');
    await writeTree(root, { 'hooks/hooks.json': hooksDoc('Stop') });
    const p = await readPluginDir(root);
    expect(codes(p)).toEqual(['error:invalid_plugin_name']);
  });

  it('P4: invalid JSON in the manifest is an error naming the file, line and column', async () => {
    const p = await plugin({
      '.claude-plugin/plugin.json': '{\n  "name": "guard",\n  "keywords": ["a",],\n}',
      'hooks/hooks.json': hooksDoc('Stop'),
    });
    expect(p.manifest).toBeNull();
    expect(p.diagnostics[0]).toMatchObject({
      code: 'invalid_manifest',
      severity: 'error',
      path: '.claude-plugin/plugin.json',
    });
    expect(p.diagnostics[0]!.message).toContain(
      '.claude-plugin/plugin.json:3:20: invalid JSON: trailing comma',
    );
    expect(eventsOf(p)).toEqual([['Stop']]);
  });

  it('P4: wrong manifest types are errors with the JSON path, and block installing', async () => {
    const p = await plugin({ 'plugin.json': { json: { name: 'guard', hooks: 5 } } });
    expect(p.diagnostics).toMatchObject([
      { code: 'invalid_manifest', severity: 'error', path: 'plugin.json:hooks' },
    ]);
    expect(hasErrors(p)).toBe(true);
    expect(p.name).toBe('guard');
  });

  it('P4: a leading byte-order mark is accepted with a warning', async () => {
    const p = await plugin({
      'plugin.json': `\uFEFF${JSON.stringify({ name: 'guard' })}`,
      'hooks/hooks.json': `\uFEFF${JSON.stringify(hooksDoc('Stop').json)}`,
    });
    expect(p.name).toBe('guard');
    expect(eventsOf(p)).toEqual([['Stop']]);
    expect(p.diagnostics.map((d) => [d.code, d.severity, d.path])).toEqual([
      ['byte_order_mark', 'warning', 'plugin.json'],
      ['byte_order_mark', 'warning', 'hooks/hooks.json'],
    ]);
  });

  it('P4: invalid UTF-8 in a document is an error naming the file', async () => {
    const p = await plugin({ 'hooks/hooks.json': Buffer.from([0x7b, 0xff, 0x7d]) });
    expect(p.diagnostics).toMatchObject([
      { code: 'plugin_hooks_failed', severity: 'error', path: 'hooks/hooks.json' },
    ]);
    expect(p.diagnostics[0]!.message).toContain('not valid UTF-8');
  });
});

describe('readPluginDir: hooks documents', () => {
  it('H1: hooks/hooks.json is loaded with its source', async () => {
    const p = await plugin({ 'hooks/hooks.json': hooksDoc('PreToolUse', 'Stop') });
    expect(p.documents.map((d) => d.source)).toEqual(['hooks/hooks.json']);
    expect(eventsOf(p)).toEqual([['PreToolUse', 'Stop']]);
    expect(p.documents[0]!.declared).toHaveLength(2);
    expect(p.diagnostics).toEqual([]);
  });

  it('H1: a file named hooks is used directly', async () => {
    const p = await plugin({ hooks: hooksDoc('Stop') });
    expect(p.documents.map((d) => d.source)).toEqual(['hooks']);
    expect(eventsOf(p)).toEqual([['Stop']]);
  });

  it('H1: an empty hooks directory or no hooks at all is not a problem', async () => {
    const p = await plugin({ 'hooks/readme.txt': 'x', 'plugin.json': { json: { name: 'guard' } } });
    expect([p.documents, p.diagnostics]).toEqual([[], []]);
  });

  it('H2: a manifest path string and an array of paths load in order after the default', async () => {
    const p = await plugin({
      'plugin.json': { json: { name: 'guard', hooks: ['./extra.json', './more'] } },
      'hooks/hooks.json': hooksDoc('Stop'),
      'extra.json': hooksDoc('PreToolUse'),
      'more/hooks.json': hooksDoc('SessionStart'),
    });
    expect(p.documents.map((d) => d.source)).toEqual([
      'hooks/hooks.json',
      './extra.json',
      './more/hooks.json',
    ]);
    expect(eventsOf(p)).toEqual([['Stop'], ['PreToolUse'], ['SessionStart']]);
    expect(p.diagnostics).toEqual([]);
  });

  it('H2: a non-default file such as hooks/hook.json is loaded when the manifest names it', async () => {
    const p = await plugin({
      '.claude-plugin/plugin.json': { json: { name: 'guard', hooks: './hooks/hook.json' } },
      'hooks/hook.json': hooksDoc('SessionEnd'),
    });
    expect(p.documents.map((d) => d.source)).toEqual(['./hooks/hook.json']);
  });

  it.each([
    ['../../other/hooks.json', '".." segment'],
    ['/etc/hooks.json', 'is absolute'],
    ['hooks/other.json', 'must start with "./"'],
    ['./', 'plugin root itself'],
  ])('H2: the manifest path %j is an error naming it (%s)', async (path, phrase) => {
    const p = await plugin({
      '.claude-plugin/plugin.json': { json: { name: 'guard', hooks: [path] } },
      'hooks/hooks.json': hooksDoc('Stop'),
      'hooks/other.json': hooksDoc('Stop'),
    });
    expect(p.diagnostics).toMatchObject([
      {
        code: 'plugin_hooks_failed',
        severity: 'error',
        path: '.claude-plugin/plugin.json:hooks[0]',
      },
    ]);
    expect(p.diagnostics[0]!.message).toContain(JSON.stringify(path));
    expect(p.diagnostics[0]!.message).toContain(phrase);
    expect(eventsOf(p)).toEqual([['Stop']]);
  });

  it('H2: a manifest path to a missing file or a directory without hooks.json is an error naming it', async () => {
    const p = await plugin({
      'plugin.json': { json: { name: 'guard', hooks: ['./nothing.json', './empty'] } },
      'empty/readme': 'x',
    });
    expect(p.diagnostics.map((d) => [d.code, d.path])).toEqual([
      ['plugin_hooks_failed', 'plugin.json:hooks[0]'],
      ['plugin_hooks_failed', 'plugin.json:hooks[1]'],
    ]);
    expect(p.diagnostics[0]!.message).toContain('./nothing.json');
    expect(p.diagnostics[1]!.message).toContain('./empty/hooks.json');
  });

  it.each(['./hooks/hooks.json', './hooks', './hooks/./hooks.json'])(
    'H2: naming the default document again (%j) loads it once, with a warning',
    async (path) => {
      const p = await plugin({
        'plugin.json': { json: { name: 'guard', hooks: path } },
        'hooks/hooks.json': hooksDoc('Stop'),
        'alias.json': { link: 'hooks/hooks.json' },
      });
      expect(p.documents.map((d) => d.source)).toEqual(['hooks/hooks.json']);
      expect(p.diagnostics).toMatchObject([
        { code: 'duplicate_document', severity: 'warning', path: 'plugin.json:hooks' },
      ]);
      expect(hasErrors(p)).toBe(false);
    },
  );

  const stop = hooksDoc('Stop');
  const named = { json: { name: 'guard', hooks: ['./alias.json', './real/hooks.json'] } };
  it.each([
    [
      'a manifest path that is a symlink',
      { 'alias.json': { link: 'hooks/hooks.json' }, 'hooks/hooks.json': stop },
    ],
    [
      'hooks/hooks.json a symlink',
      { 'alias.json': stop, 'hooks/hooks.json': { link: '../alias.json' } },
    ],
    ['a hooks directory that is a symlink', { hooks: { link: 'real' }, 'alias.json': stop }],
  ] as const)(
    'H2, H5: a file named twice through a symlink (%s) loads as in the installed copy',
    async (_, links: Record<string, TreeFile>) => {
      const p = await plugin({ 'plugin.json': named, 'real/hooks.json': stop, ...links });
      const copy = join(base, 'copy');
      await copyPluginTree(join(base, 'guard'), copy);
      const installed = await readPluginDir(copy);
      expect(p.documents.map((d) => d.source)).toEqual(installed.documents.map((d) => d.source));
      expect(p.documents).toHaveLength(3);
      expect(codes(p)).toEqual(codes(installed));
    },
  );

  it('H4: past 50 MiB of hooks documents in all (one file named through 8 hard links), each further document is an error naming it', async () => {
    const command = `echo ${'a'.repeat(9 * 1024 * 1024)}`;
    const big = { hooks: { Stop: [{ hooks: [{ type: 'command', command }] }] } };
    const names = Array.from({ length: 8 }, (_, i) => `./l${i}.json`);
    await writeTree(join(base, 'guard'), {
      'plugin.json': { json: { name: 'guard', hooks: [...names, './small.json'] } },
      'big.json': JSON.stringify(big),
      'small.json': hooksDoc('PreToolUse'),
    });
    for (const name of names)
      await link(join(base, 'guard', 'big.json'), join(base, 'guard', name));
    const p = await readPluginDir(join(base, 'guard'));
    expect(p.documents.map((d) => d.source)).toEqual([...names.slice(0, 5), './small.json']);
    expect(p.diagnostics.map((d) => [d.code, d.path])).toEqual([
      ['plugin_hooks_failed', 'plugin.json:hooks[5]'],
      ['plugin_hooks_failed', 'plugin.json:hooks[6]'],
      ['plugin_hooks_failed', 'plugin.json:hooks[7]'],
    ]);
    expect(p.diagnostics[0]!.message).toContain('./l5.json');
    expect(p.diagnostics[0]!.message).toContain('in all');
  });

  it('H3: an inline bare event map in the manifest is a document with source plugin.json#hooks', async () => {
    const p = await plugin({
      '.claude-plugin/plugin.json': {
        json: {
          name: 'guard',
          hooks: {
            SessionStart: [{ matcher: '', hooks: [{ type: 'command', command: 'bd prime' }] }],
          },
        },
      },
      'hooks/hooks.json': hooksDoc('Stop'),
    });
    expect(p.documents.map((d) => d.source)).toEqual(['hooks/hooks.json', 'plugin.json#hooks']);
    expect(eventsOf(p)).toEqual([['Stop'], ['SessionStart']]);
  });

  it('H3: an inline object with its own hooks object is used as a whole document', async () => {
    const p = await plugin({
      'plugin.json': {
        json: { name: 'guard', hooks: { description: 'x', ...(hooksDoc('Stop').json as object) } },
      },
    });
    expect(eventsOf(p)).toEqual([['Stop']]);
    expect(p.diagnostics).toEqual([]);
  });

  it('H4: a broken document gives an error naming the plugin and the file, and the others still load', async () => {
    const p = await plugin({
      'plugin.json': {
        json: {
          name: 'guard',
          hooks: ['./broken.json', './dup.json', './shape.json', './ok.json'],
        },
      },
      'hooks/hooks.json': hooksDoc('Stop'),
      'broken.json': '{"hooks": {"Stop": [}}',
      'dup.json': '{"hooks": {"Stop": []}, "hooks": {}}',
      'shape.json': { json: { Stop: [] } },
      'ok.json': hooksDoc('PreToolUse'),
    });
    expect(p.documents.map((d) => d.source)).toEqual([
      'hooks/hooks.json',
      './broken.json',
      './dup.json',
      './shape.json',
      './ok.json',
    ]);
    expect(eventsOf(p)).toEqual([['Stop'], null, null, null, ['PreToolUse']]);
    const errors = p.diagnostics.filter((d) => d.severity === 'error');
    expect(errors.map((d) => [d.code, d.path?.split(':')[0], d.plugin, d.origin])).toEqual([
      ['plugin_hooks_failed', './broken.json', 'guard', 'plugin'],
      ['plugin_hooks_failed', './dup.json', 'guard', 'plugin'],
      ['invalid_config', './shape.json', 'guard', 'plugin'],
    ]);
    expect(errors[0]!.message).toContain('plugin guard: ./broken.json:1:21: invalid JSON');
    expect(errors[1]!.message).toContain('duplicate key "hooks"');
  });

  it('H4: the plugin id, when given, names the plugin in every diagnostic', async () => {
    const root = join(base, 'g');
    await writeTree(root, { 'hooks/hooks.json': '[' });
    const p = await readPluginDir(root, { id: 'g@examples' });
    expect(p.diagnostics.map((d) => d.plugin)).toEqual(['g@examples']);
  });

  it('P4: problems inside a valid document are warnings and those entries stay inert', async () => {
    const p = await plugin({
      'hooks/hooks.json': {
        json: {
          hooks: {
            OnSave: [{ hooks: [{ type: 'command', command: 'a' }] }],
            Stop: [
              {
                hooks: [
                  { type: 'prompt', prompt: 'x' },
                  { type: 'command', command: 'ok' },
                ],
              },
            ],
          },
        },
      },
    });
    expect(hasErrors(p)).toBe(false);
    expect(p.diagnostics.filter((d) => d.code === 'invalid_config').map((d) => d.severity)).toEqual(
      ['warning', 'warning'],
    );
    expect(p.documents[0]!.declared.map((d) => [d.event, d.valid])).toEqual([
      ['OnSave', false],
      ['Stop', false],
      ['Stop', true],
    ]);
  });

  it('H5: hooks/hooks.json as a symlink to a file outside the plugin is an error naming it, never read', async () => {
    await writeTree(base, { 'outside.json': hooksDoc('Stop') });
    const p = await plugin({ 'hooks/hooks.json': { link: join(base, 'outside.json') } });
    expect(p.documents).toEqual([]);
    expect(p.diagnostics).toMatchObject([
      { code: 'plugin_hooks_failed', severity: 'error', path: 'hooks/hooks.json' },
    ]);
    expect(p.diagnostics[0]!.message).toContain('outside the plugin root');
  });

  it('H5: a manifest path through a symlinked directory that leaves the root is refused', async () => {
    await writeTree(base, { 'elsewhere/hooks.json': hooksDoc('Stop') });
    const p = await plugin({
      'plugin.json': { json: { name: 'guard', hooks: './linked/hooks.json' } },
      linked: { link: join(base, 'elsewhere') },
    });
    expect(p.documents).toEqual([]);
    expect(p.diagnostics[0]).toMatchObject({
      code: 'plugin_hooks_failed',
      path: 'plugin.json:hooks',
    });
  });

  it('H5: a manifest that is a symlink outside the root is not followed', async () => {
    await writeTree(base, { 'm.json': { json: { name: 'evil' } } });
    const p = await plugin({ 'plugin.json': { link: join(base, 'm.json') } });
    expect(p.name).toBe('guard');
    expect(p.diagnostics[0]).toMatchObject({ code: 'invalid_manifest', path: 'plugin.json' });
  });

  it('H5: a symlink that stays inside the root is followed', async () => {
    const p = await plugin({ 'real/hooks.json': hooksDoc('Stop'), hooks: { link: 'real' } });
    expect(eventsOf(p)).toEqual([['Stop']]);
    expect(p.diagnostics).toEqual([]);
  });

  it('a missing plugin directory is an E_NOT_FOUND error, not a diagnostic', async () => {
    await expect(readPluginDir(join(base, 'nope'))).rejects.toSatisfy((e) =>
      isHookpmError(e, 'E_NOT_FOUND'),
    );
  });
});
