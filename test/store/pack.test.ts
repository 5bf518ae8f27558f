import {
  chmod,
  mkdir,
  readFile,
  readdir,
  symlink,
  truncate,
  utimes,
  writeFile,
} from 'node:fs/promises';
import { join } from 'node:path';
import * as tar from 'tar';
import { describe, expect, it } from 'vitest';
import type { ErrorCode } from '../../src/errors.js';
import { buildSurface } from '../../src/plugin/surface.js';
import { parseIndex } from '../../src/registry/indexes/index-schema.js';
import { integrityOf } from '../../src/registry/integrity.js';
import { packPlugin } from '../../src/publish/pack.js';
import { readPluginDir } from '../../src/store/read-plugin.js';
import { scanTarball } from '../../src/store/tar/tarball-scan.js';
import { failure } from '../helpers/failure.js';
import { useTempDirs } from '../helpers/temp-dir.js';

const tempDir = useTempDirs('hookpm-pack-');

const HOOKS = {
  hooks: {
    PreToolUse: [
      {
        matcher: 'Bash',
        hooks: [{ type: 'command', command: 'sh "${CLAUDE_PLUGIN_ROOT}/run.sh"', timeout: 5 }],
      },
    ],
    Stop: [{ hooks: [{ type: 'command', argv: ['node', '${CLAUDE_PLUGIN_ROOT}/stop.mjs'] }] }],
  },
};

/** A small valid plugin; `files` adds or replaces files (relative path -> content). */
async function makePlugin(root: string, files: Record<string, string> = {}): Promise<string> {
  const all: Record<string, string> = {
    '.claude-plugin/plugin.json': JSON.stringify({
      name: 'demo',
      version: '1.2.3',
      description: 'A demo',
      keywords: ['x'],
    }),
    'hooks/hooks.json': JSON.stringify(HOOKS),
    'run.sh': '#!/bin/sh\nexit 0\n',
    'stop.mjs': 'process.exit(0);\n',
    'README.md': '# demo\n',
    ...files,
  };
  for (const [path, content] of Object.entries(all)) {
    await mkdir(join(root, path, '..'), { recursive: true });
    await writeFile(join(root, path), content);
  }
  await chmod(join(root, 'run.sh'), 0o755);
  return root;
}

interface RawEntry {
  path: string;
  type: string;
  mode: number;
  uid: number;
  gid: number;
  mtime: number;
}

async function rawEntries(file: string): Promise<RawEntry[]> {
  const entries: RawEntry[] = [];
  await tar.t({
    file,
    onReadEntry: (entry) => {
      entries.push({
        path: entry.path,
        type: entry.type,
        mode: entry.mode ?? -1,
        uid: entry.uid ?? -1,
        gid: entry.gid ?? -1,
        mtime: entry.mtime?.getTime() ?? -1,
      });
    },
  });
  return entries;
}

describe('packPlugin (cli.md pack, registry.md A1)', () => {
  it('A1: packing twice gives the same bytes and integrity, whatever the file times, permissions or creation order', async () => {
    const base = await tempDir();
    const first = await makePlugin(join(base, 'one'));
    const second = join(base, 'two');
    await mkdir(second);
    for (const path of [
      'README.md',
      'stop.mjs',
      'run.sh',
      'hooks/hooks.json',
      '.claude-plugin/plugin.json',
    ]) {
      await mkdir(join(second, path, '..'), { recursive: true });
      await writeFile(join(second, path), await readFile(join(first, path)));
    }
    await chmod(join(second, 'run.sh'), 0o700);
    await chmod(join(second, 'README.md'), 0o600);
    await utimes(join(second, 'README.md'), new Date('2001-01-01'), new Date('2001-01-01'));
    const a = await packPlugin(first, { outDir: join(base, 'out-a') });
    const again = await packPlugin(first, { outDir: join(base, 'out-b') });
    const b = await packPlugin(second, { outDir: join(base, 'out-c') });
    const bytes = await readFile(a.file);
    expect(await readFile(again.file)).toEqual(bytes);
    expect(await readFile(b.file)).toEqual(bytes);
    expect(a.integrity).toBe(b.integrity);
    expect(a.integrity).toBe(integrityOf(bytes));
    expect(a.size).toBe(bytes.length);
    // The gzip header carries no time and a fixed OS byte.
    expect([...bytes.subarray(4, 8)]).toEqual([0, 0, 0, 0]);
    expect(bytes[9]).toBe(0xff);
  });

  it('A1: packing in the plugin directory itself (the default --out) never packs its tarballs, so packing again gives the same bytes', async () => {
    const base = await tempDir();
    const root = await makePlugin(join(base, 'p'));
    const first = await packPlugin(root, { outDir: root });
    const bytes = await readFile(first.file);
    // A tarball of an earlier version left there is none of the plugin's files either.
    await writeFile(join(root, 'demo-1.2.2.tgz'), bytes);
    const again = await packPlugin(root, { outDir: root });
    expect(again.integrity).toBe(first.integrity);
    expect(await readFile(again.file)).toEqual(bytes);
    const paths = (await rawEntries(again.file)).map((e) => e.path);
    expect(paths.some((p) => p.endsWith('.tgz'))).toBe(false);
    // Under another name, or below the root where --out is not, a .tgz is a file like any other.
    await writeFile(join(root, 'fixture.tgz'), bytes);
    const third = await packPlugin(root, { outDir: join(base, 'out') });
    expect((await rawEntries(third.file)).map((e) => e.path)).toContain('package/fixture.tgz');
  });

  it('A1: every entry is a regular file under package/, sorted, with mtime fixed, uid/gid 0 and modes 0644/0755', async () => {
    const base = await tempDir();
    const result = await packPlugin(await makePlugin(join(base, 'p')), { outDir: base });
    expect(result.file).toBe(join(base, 'demo-1.2.3.tgz'));
    const entries = await rawEntries(result.file);
    const paths = entries.map((e) => e.path);
    expect(paths).toEqual([
      'package/.claude-plugin/plugin.json',
      'package/README.md',
      'package/hooks/hooks.json',
      'package/run.sh',
      'package/stop.mjs',
    ]);
    expect(new Set(entries.map((e) => e.type))).toEqual(new Set(['File']));
    expect(new Set(entries.map((e) => e.mtime))).toEqual(new Set([499162500 * 1000]));
    expect(new Set(entries.map((e) => `${e.uid}:${e.gid}`))).toEqual(new Set(['0:0']));
    expect(entries.find((e) => e.path === 'package/run.sh')?.mode).toBe(0o755);
    expect(entries.find((e) => e.path === 'package/README.md')?.mode).toBe(0o644);
  });

  it("A1-A3: the tarball passes the installer's own scan (scanTarball), a long path included", async () => {
    const base = await tempDir();
    const deep = `${'d'.repeat(60)}/${'e'.repeat(60)}/${'f'.repeat(60)}/notes.txt`;
    const result = await packPlugin(await makePlugin(join(base, 'p'), { [deep]: 'deep\n' }), {
      outDir: base,
    });
    const listing = await scanTarball(result.file);
    expect(listing.entries.map((e) => e.path)).toContain(deep);
    expect(listing.entries.find((e) => e.path === 'run.sh')?.mode).toBe(0o755);
    expect(listing.entries.every((e) => e.type === 'file')).toBe(true);
  });

  it('registry.md section 2: the index entry carries integrity, size, events and the surfaceHash of plugins.md Q2', async () => {
    const base = await tempDir();
    const root = await makePlugin(join(base, 'p'));
    const result = await packPlugin(root, {
      outDir: base,
      publishedAt: '2026-11-01T00:00:00Z',
      tarballPrefix: 'tarballs/',
    });
    const plugin = await readPluginDir(root);
    const surface = buildSurface({ documents: plugin.documents, diagnostics: plugin.diagnostics });
    expect(result).toMatchObject({
      name: 'demo',
      version: '1.2.3',
      events: ['PreToolUse', 'Stop'],
    });
    expect(result.surfaceHash).toBe(surface.surfaceHash);
    expect(result.surface).toEqual(surface.entries);
    expect(result.entry).toEqual({
      tarball: 'tarballs/demo-1.2.3.tgz',
      integrity: result.integrity,
      size: result.size,
      publishedAt: '2026-11-01T00:00:00Z',
      events: ['PreToolUse', 'Stop'],
      surfaceHash: surface.surfaceHash,
    });
    const index = parseIndex(
      {
        formatVersion: 1,
        plugins: { demo: { distTags: { latest: '1.2.3' }, versions: { '1.2.3': result.entry } } },
      },
      'index.json',
    );
    expect(index.plugins['demo']?.versions['1.2.3']?.integrity).toBe(result.integrity);
  });

  it('H5: a symlink leaving the plugin tree is refused with E_SYMLINK_ESCAPE and no tarball is written', async () => {
    const base = await tempDir();
    const root = await makePlugin(join(base, 'p'));
    await writeFile(join(base, 'secret.txt'), 'secret\n');
    await symlink(join(base, 'secret.txt'), join(root, 'leak.txt'));
    const error = await failure(packPlugin(root, { outDir: join(base, 'out') }));
    expect(error.code).toBe<ErrorCode>('E_SYMLINK_ESCAPE');
    expect(error.message).toContain('leak.txt');
    await expect(readdir(join(base, 'out'))).rejects.toThrow();
  });

  it('A1: a symlink inside the tree is packed as a copy of the file it names; .git is left out', async () => {
    const base = await tempDir();
    const root = await makePlugin(join(base, 'p'));
    await symlink('run.sh', join(root, 'alias.sh'));
    await mkdir(join(root, '.git'));
    await writeFile(join(root, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    const result = await packPlugin(root, { outDir: base });
    const entries = await rawEntries(result.file);
    expect(entries.map((e) => e.path)).toContain('package/alias.sh');
    expect(entries.find((e) => e.path === 'package/alias.sh')).toMatchObject({
      type: 'File',
      mode: 0o755,
    });
    expect(entries.some((e) => e.path.includes('.git'))).toBe(false);
  });

  it('P1, P2: a plugin without a manifest, or whose manifest has no version, cannot be published (E_MANIFEST_INVALID)', async () => {
    const base = await tempDir();
    const bare = join(base, 'bare');
    await mkdir(join(bare, 'hooks'), { recursive: true });
    await writeFile(join(bare, 'hooks', 'hooks.json'), JSON.stringify(HOOKS));
    expect((await failure(packPlugin(bare, { outDir: base }))).code).toBe<ErrorCode>(
      'E_MANIFEST_INVALID',
    );
    const unversioned = await makePlugin(join(base, 'unversioned'), {
      '.claude-plugin/plugin.json': JSON.stringify({ name: 'demo' }),
    });
    const error = await failure(packPlugin(unversioned, { outDir: base }));
    expect(error.code).toBe<ErrorCode>('E_MANIFEST_INVALID');
    expect(error.message).toMatch(/version/);
    expect((await readdir(base)).filter((n) => n.endsWith('.tgz'))).toEqual([]);
  });

  it('P4: a plugin with an error diagnostic (invalid hooks JSON, invalid name) is refused, naming the file', async () => {
    const base = await tempDir();
    const broken = await makePlugin(join(base, 'broken'), { 'hooks/hooks.json': '{"hooks": {' });
    const error = await failure(packPlugin(broken, { outDir: base }));
    expect(error.code).toBe<ErrorCode>('E_HOOKS_INVALID');
    expect(error.message).toContain('hooks/hooks.json');
    // One line: an error's control characters are printed escaped.
    expect(error.message).not.toContain('\n');
    const badName = await makePlugin(join(base, 'bad-name'), {
      '.claude-plugin/plugin.json': JSON.stringify({ name: 'Bad Name', version: '1.0.0' }),
    });
    expect((await failure(packPlugin(badName, { outDir: base }))).code).toBe<ErrorCode>(
      'E_NAME_INVALID',
    );
    expect((await readdir(base)).filter((n) => n.endsWith('.tgz'))).toEqual([]);
  });

  it('P4: the refusal of a directory with a space or a quote says how to validate it, the path one shell word', async () => {
    const base = await tempDir();
    const broken = await makePlugin(join(base, "it's broken"), { 'hooks/hooks.json': '{' });
    const error = await failure(packPlugin(broken, { outDir: base }));
    expect(error.code).toBe<ErrorCode>('E_HOOKS_INVALID');
    expect(error.hint).toContain(`hookpm validate '${broken.replaceAll("'", "'\\''")}'\` for`);
  });

  it('A2: a plugin whose names the installer would refuse leaves a tarball packed earlier in --out byte-identical', async () => {
    const base = await tempDir();
    const root = await makePlugin(join(base, 'p'));
    const out = join(base, 'out');
    const first = await packPlugin(root, { outDir: out });
    const before = await readFile(first.file);
    await writeFile(join(root, 'a:b.txt'), 'colon\n');
    const error = await failure(packPlugin(root, { outDir: out }));
    expect(error.code).toBe<ErrorCode>('E_ARCHIVE_UNSAFE');
    expect(error.message).toContain('a:b.txt');
    // The author's fix, not the installer's advice to rebuild a tarball.
    expect(error.hint).toBe(
      `Rename or remove the file it names in ${root} (a plugin's files need plain, distinct names), and pack again.`,
    );
    expect(await readdir(out)).toEqual(['demo-1.2.3.tgz']);
    expect(await readFile(first.file)).toEqual(before);
  });

  it('A2: a file over the size limit is refused from its size, before it is read (a sparse 3 GiB file)', async () => {
    const base = await tempDir();
    const root = await makePlugin(join(base, 'p'));
    await writeFile(join(root, 'huge.bin'), '');
    await truncate(join(root, 'huge.bin'), 3 * 1024 ** 3);
    await symlink('huge.bin', join(root, 'alias.bin'));
    const error = await failure(packPlugin(root, { outDir: join(base, 'out') }));
    expect(error.code).toBe<ErrorCode>('E_ARCHIVE_TOO_LARGE');
    expect(error.message).toMatch(/(alias|huge)\.bin is 3221225472 bytes/);
  });

  it('A2: links that fan out to the same folders end the walk past the entry limit instead of visiting 2^24 paths', async () => {
    const base = await tempDir();
    const root = await makePlugin(join(base, 'p'));
    // d0 holds two links to d1, d1 two to d2, ...: every d is inside the plugin, none is a cycle.
    const levels = 24;
    await mkdir(join(root, `d${levels}`));
    for (let level = levels - 1; level >= 0; level -= 1) {
      await mkdir(join(root, `d${level}`));
      for (const link of ['a', 'b'])
        await symlink(`../d${level + 1}`, join(root, `d${level}`, link));
    }
    const error = await failure(packPlugin(root, { outDir: join(base, 'out') }));
    expect(error.code).toBe<ErrorCode>('E_ARCHIVE_TOO_LARGE');
    expect(error.message).toContain('more than 2000 directories');
    await expect(readdir(join(base, 'out'))).rejects.toThrow();
  });

  it('cli.md pack: an --out that is a file is E_USAGE naming it, and the file stays', async () => {
    const base = await tempDir();
    const root = await makePlugin(join(base, 'p'));
    await writeFile(join(base, 'out'), 'mine\n');
    const error = await failure(packPlugin(root, { outDir: join(base, 'out') }));
    expect(error.code).toBe<ErrorCode>('E_USAGE');
    expect(error.message).toContain(join(base, 'out'));
    expect(await readFile(join(base, 'out'), 'utf8')).toBe('mine\n');
  });

  it('I1: a version semver reads but does not write the same (v1.0.0, 1.0.0+build) cannot be published (E_MANIFEST_INVALID)', async () => {
    const base = await tempDir();
    for (const version of ['v1.2.3', ' 1.2.3', '1.2.3+build.5']) {
      const root = await makePlugin(join(base, `p${version.trim()}`), {
        '.claude-plugin/plugin.json': JSON.stringify({ name: 'demo', version }),
      });
      const error = await failure(packPlugin(root, { outDir: base }));
      expect(error.code).toBe<ErrorCode>('E_MANIFEST_INVALID');
      expect(error.message).toContain(JSON.stringify(version));
    }
    expect((await readdir(base)).filter((n) => n.endsWith('.tgz'))).toEqual([]);
  });
});
