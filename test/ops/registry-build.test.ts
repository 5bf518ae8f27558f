import { execFileSync } from 'node:child_process';
import {
  cp,
  lstat,
  mkdir,
  readFile,
  readdir,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { hostname } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HookpmError, type ErrorCode } from '../../src/errors.js';
import { buildRegistry, normaliseDate } from '../../src/ops/registries/build.js';
import { parseIndex } from '../../src/registry/indexes/index-schema.js';
import { integrityOf } from '../../src/registry/integrity.js';
import { failure } from '../helpers/failure.js';
import { useTempDirs } from '../helpers/temp-dir.js';

const tempDir = useTempDirs('hookpm-build-');

/** What a build leaves at the top of its output directory, and nothing else. */
const BUILT = ['index.html', 'index.json', 'plugins', 'registry.json', 'search', 'tarballs'];

interface Source {
  name: string;
  version: string;
  description?: string;
  keywords?: string[];
  command?: string;
  event?: string;
}

async function writePlugin(dir: string, source: Source): Promise<void> {
  await mkdir(join(dir, '.claude-plugin'), { recursive: true });
  await mkdir(join(dir, 'hooks'), { recursive: true });
  const manifest = {
    name: source.name,
    version: source.version,
    description: source.description ?? `The ${source.name} plugin`,
    keywords: source.keywords ?? ['demo'],
  };
  await writeFile(join(dir, '.claude-plugin', 'plugin.json'), JSON.stringify(manifest, null, 2));
  const hooks = {
    hooks: {
      [source.event ?? 'PreToolUse']: [
        {
          hooks: [
            { type: 'command', command: source.command ?? `echo ${source.name}`, timeout: 5 },
          ],
        },
      ],
    },
  };
  await writeFile(join(dir, 'hooks', 'hooks.json'), JSON.stringify(hooks, null, 2));
}

/** Every file under `root` (relative path -> bytes). */
async function tree(root: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  const walk = async (dir: string): Promise<void> => {
    for (const name of (await readdir(dir)).sort()) {
      const path = join(dir, name);
      if ((await stat(path)).isDirectory()) await walk(path);
      else files.set(relative(root, path), await readFile(path));
    }
  };
  await walk(root);
  return files;
}

describe('buildRegistry (cli.md registry build)', () => {
  it('building twice gives byte-identical index.json, index.html and tarballs', async () => {
    const base = await tempDir();
    await writePlugin(join(base, 'src', 'alpha'), { name: 'alpha', version: '1.0.0' });
    await writePlugin(join(base, 'src', 'beta'), { name: 'beta', version: '0.3.1', event: 'Stop' });
    const opts = {
      pluginsDir: join(base, 'src'),
      name: 'acme',
      publishedAt: '2026-11-01T00:00:00Z',
    };
    await buildRegistry({ ...opts, outDir: join(base, 'one') });
    await buildRegistry({ ...opts, outDir: join(base, 'two') });
    const one = await tree(join(base, 'one'));
    expect([...one.keys()].sort()).toEqual([
      'index.html',
      'index.json',
      'plugins/al/alpha.json',
      'plugins/be/beta.json',
      'registry.json',
      'search/al.json',
      'search/be.json',
      'search/index.json',
      'tarballs/alpha-1.0.0.tgz',
      'tarballs/beta-0.3.1.tgz',
    ]);
    expect(await tree(join(base, 'two'))).toEqual(one);
    await buildRegistry({ ...opts, outDir: join(base, 'one') });
    expect(await tree(join(base, 'one'))).toEqual(one);
  });

  it('N9: a rebuild leaves every file whose bytes would not change untouched, tarballs, index.json and index.html too (a sync or a server sees nothing new)', async () => {
    const base = await tempDir();
    await writePlugin(join(base, 'src', 'alpha'), { name: 'alpha', version: '1.0.0' });
    await writePlugin(join(base, 'src', 'beta'), { name: 'beta', version: '0.3.1' });
    const opts = { pluginsDir: join(base, 'src'), outDir: join(base, 'out'), name: 'acme' };
    await buildRegistry({ ...opts, publishedAt: '2026-11-01T00:00:00Z' });
    const files = [...(await tree(opts.outDir)).keys()];
    const identity = async () =>
      Promise.all(
        files.map(async (f) => {
          const info = await stat(join(opts.outDir, f));
          return `${f} ${info.ino} ${info.mtimeMs}`;
        }),
      );
    const before = await identity();
    await new Promise((done) => setTimeout(done, 30));
    await buildRegistry({ ...opts, publishedAt: '2026-12-01T00:00:00Z' });
    expect(await identity()).toEqual(before);
    await writePlugin(join(base, 'src', 'beta'), { name: 'beta', version: '0.3.1', event: 'Stop' });
    await buildRegistry({ ...opts, publishedAt: '2026-12-01T00:00:00Z' });
    const changed = (await identity()).filter((line, i) => line !== before[i]);
    expect(changed.map((line) => line.split(' ')[0])).toEqual([
      'index.html',
      'index.json',
      'plugins/be/beta.json',
      'search/be.json',
      'search/index.json',
      'tarballs/beta-0.3.1.tgz',
    ]);
  });

  it('I1, I3: the index passes parseIndex, names each tarball with its real integrity and size, and lists versions with distTags.latest', async () => {
    const base = await tempDir();
    await writePlugin(join(base, 'src', 'alpha'), {
      name: 'alpha',
      version: '1.1.0',
      keywords: ['k1'],
    });
    await writePlugin(join(base, 'old', 'alpha-1.0.0'), { name: 'alpha', version: '1.0.0' });
    await writePlugin(join(base, 'old', 'alpha-2.0.0-beta.1'), {
      name: 'alpha',
      version: '2.0.0-beta.1',
    });
    const result = await buildRegistry({
      pluginsDir: join(base, 'src'),
      historyDir: join(base, 'old'),
      outDir: join(base, 'out'),
    });
    const raw: unknown = JSON.parse(await readFile(join(base, 'out', 'index.json'), 'utf8'));
    const index = parseIndex(raw, 'index.json');
    expect(result.name).toBe('out');
    expect(index.name).toBe('out');
    const alpha = index.plugins['alpha'];
    expect(Object.keys(alpha?.versions ?? {})).toEqual(['1.0.0', '1.1.0', '2.0.0-beta.1']);
    expect(alpha?.distTags).toEqual({ latest: '1.1.0' });
    expect(alpha?.keywords).toEqual(['k1']);
    for (const entry of Object.values(alpha?.versions ?? {})) {
      const bytes = await readFile(join(base, 'out', entry.tarball));
      expect(entry.integrity).toBe(integrityOf(bytes));
      expect(entry.size).toBe(bytes.length);
      expect(entry.events).toEqual(['PreToolUse']);
      expect(entry.publishedAt).toBeUndefined();
    }
  });

  it('the marketplace page HTML-escapes every plugin-supplied string, and its embedded JSON cannot close the script', async () => {
    const base = await tempDir();
    const hostile = '<img src=x onerror=alert(1)></script><script>alert(2)</script>';
    await writePlugin(join(base, 'src', 'evil'), {
      name: 'evil',
      version: '1.0.0',
      description: hostile,
      keywords: ['<b>kw</b>', '" onmouseover="x'],
      command: 'echo "</pre><img src=y onerror=alert(3)>" \u001b[2J',
    });
    await buildRegistry({ pluginsDir: join(base, 'src'), outDir: join(base, 'out'), name: 'acme' });
    const html = await readFile(join(base, 'out', 'index.html'), 'utf8');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<b>kw');
    expect(html).not.toContain('" onmouseover="x');
    expect(html).not.toContain('\u001b');
    expect(html).toContain(
      '&lt;img src=x onerror=alert(1)&gt;&lt;/script&gt;&lt;script&gt;alert(2)&lt;/script&gt;',
    );
    expect(html).toContain(
      'echo &quot;&lt;/pre&gt;&lt;img src=y onerror=alert(3)&gt;&quot; \\u001b[2J',
    );
    // Exactly the page's own two script elements: the data block and the page script.
    expect(html.match(/<script/g)?.length).toBe(2);
    expect(html.match(/<\/script>/g)?.length).toBe(2);
    const data =
      /<script type="application\/json" id="marketplace-data">([^<]*)<\/script>/.exec(html)?.[1] ??
      '';
    expect(JSON.parse(data)).toMatchObject({ registry: 'acme', plugins: [{ name: 'evil' }] });
    expect(html).toContain('hookpm install evil@acme');
    expect(html).toMatch(
      /Content-Security-Policy" content="default-src &#39;none&#39;; style-src &#39;sha256-/,
    );
  });

  it('removes stale tarballs from an earlier build, and writes nothing new when a plugin is refused', async () => {
    const base = await tempDir();
    await writePlugin(join(base, 'src', 'alpha'), { name: 'alpha', version: '1.0.0' });
    await mkdir(join(base, 'out', 'tarballs'), { recursive: true });
    await writeFile(join(base, 'out', 'tarballs', 'gone-9.9.9.tgz'), 'old');
    const result = await buildRegistry({
      pluginsDir: join(base, 'src'),
      outDir: join(base, 'out'),
    });
    expect(result.removed).toEqual(['tarballs/gone-9.9.9.tgz']);
    expect(await readdir(join(base, 'out', 'tarballs'))).toEqual(['alpha-1.0.0.tgz']);

    const before = await tree(join(base, 'out'));
    await writePlugin(join(base, 'src', 'alpha'), { name: 'alpha', version: '1.1.0' });
    await mkdir(join(base, 'src', 'broken', 'hooks'), { recursive: true });
    await writeFile(join(base, 'src', 'broken', 'plugin.json'), '{"name": "broken"}');
    const error = await failure(
      buildRegistry({ pluginsDir: join(base, 'src'), outDir: join(base, 'out') }),
    );
    expect(error.code).toBe<ErrorCode>('E_MANIFEST_INVALID');
    expect(error.message).toContain('broken');
    expect(await tree(join(base, 'out'))).toEqual(before);
    expect((await readdir(join(base, 'out'))).sort()).toEqual(BUILT);
  });

  it('cli.md registry build: a rebuild removes the tarballs an earlier build wrote, not a folder or a file of another name in tarballs/', async () => {
    const base = await tempDir();
    await writePlugin(join(base, 'src', 'alpha'), { name: 'alpha', version: '1.0.0' });
    const tarballs = join(base, 'out', 'tarballs');
    await mkdir(join(tarballs, 'kept-1.0.0.tgz'), { recursive: true });
    for (const name of ['backup.tgz', 'notes.txt', 'gone-9.9.9.tgz'])
      await writeFile(join(tarballs, name), 'mine\n');
    const result = await buildRegistry({
      pluginsDir: join(base, 'src'),
      outDir: join(base, 'out'),
    });
    expect(result.removed).toEqual(['tarballs/gone-9.9.9.tgz']);
    expect((await readdir(tarballs)).sort()).toEqual([
      'alpha-1.0.0.tgz',
      'backup.tgz',
      'kept-1.0.0.tgz',
      'notes.txt',
    ]);
  });

  it('cli.md registry build: an output directory that is the sources directory, inside a plugin source, or whose plugins/ holds the sources is E_USAGE; nothing is written', async () => {
    const base = await tempDir();
    await writePlugin(join(base, 'plugins', 'alpha'), { name: 'alpha', version: '1.0.0' });
    const cases: Array<[string, string, string]> = [
      [join(base, 'plugins'), join(base, 'plugins'), 'it is the plugin sources directory'],
      [join(base, 'plugins'), join(base, 'plugins', 'alpha', 'site'), 'inside the plugin source'],
      [join(base, 'plugins'), base, 'is (or is inside) its plugins/ folder'],
    ];
    const before = await tree(base);
    for (const [pluginsDir, outDir, says] of cases) {
      const error = await failure(buildRegistry({ pluginsDir, outDir, name: 'acme' }));
      expect(error.code, outDir).toBe<ErrorCode>('E_USAGE');
      expect(error.message, outDir).toContain(says);
      expect(await tree(base), outDir).toEqual(before);
    }
    // A hidden folder of the sources directory is no source: a build may write there.
    const built = await buildRegistry({
      pluginsDir: join(base, 'plugins'),
      outDir: join(base, 'plugins', '.site'),
      name: 'acme',
    });
    expect(Object.keys(built.index.plugins)).toEqual(['alpha']);
  });

  it('cli.md registry build: a source that is a symlink to a plugin folder is packed, not skipped; one leading to a folder holding the output is E_USAGE', async () => {
    const base = await tempDir();
    await writePlugin(join(base, 'elsewhere', 'beta'), { name: 'beta', version: '1.0.0' });
    await writePlugin(join(base, 'plugins', 'alpha'), { name: 'alpha', version: '1.0.0' });
    await symlink(join(base, 'elsewhere', 'beta'), join(base, 'plugins', 'beta'));
    // An alias of a source already listed is the same source, packed once.
    await symlink(join(base, 'plugins', 'alpha'), join(base, 'plugins', 'alpha-latest'));
    const out = join(base, 'out');
    const built = await buildRegistry({ pluginsDir: join(base, 'plugins'), outDir: out });
    expect(Object.keys(built.index.plugins)).toEqual(['alpha', 'beta']);
    // A link to a folder holding the output would pack the registry into its own tarball.
    await symlink(base, join(base, 'plugins', 'gamma'));
    const error = await failure(buildRegistry({ pluginsDir: join(base, 'plugins'), outDir: out }));
    expect(error.code).toBe<ErrorCode>('E_USAGE');
    expect(error.message).toContain('inside the plugin source');
  });

  it('cli.md registry build: a build that fails after moving its tarballs in leaves every tarball the index.json before names', async () => {
    const base = await tempDir();
    await writePlugin(join(base, 'src', 'alpha'), { name: 'alpha', version: '1.0.0' });
    const out = join(base, 'out');
    await buildRegistry({ pluginsDir: join(base, 'src'), outDir: out, name: 'acme' });
    await rm(join(base, 'src', 'alpha'), { recursive: true });
    await writePlugin(join(base, 'src', 'beta'), { name: 'beta', version: '1.0.0' });
    // index.html cannot be replaced: the build fails before it writes index.json.
    await rm(join(out, 'index.html'));
    await mkdir(join(out, 'index.html', 'sub'), { recursive: true });
    const error = await failure(
      buildRegistry({ pluginsDir: join(base, 'src'), outDir: out, name: 'acme' }),
    );
    expect(error.code).toBe<ErrorCode>('E_IO');
    const index = parseIndex(JSON.parse(await readFile(join(out, 'index.json'), 'utf8')), out);
    for (const plugin of Object.values(index.plugins))
      for (const version of Object.values(plugin.versions))
        expect((await stat(join(out, version.tarball))).isFile(), version.tarball).toBe(true);
  });

  it('cli.md registry build: a folder where a tarball goes is E_IO naming it, not an internal error', async () => {
    const base = await tempDir();
    await writePlugin(join(base, 'src', 'alpha'), { name: 'alpha', version: '1.0.0' });
    const out = join(base, 'out');
    await mkdir(join(out, 'tarballs', 'alpha-1.0.0.tgz', 'sub'), { recursive: true });
    const error = await failure(
      buildRegistry({ pluginsDir: join(base, 'src'), outDir: out, name: 'acme' }),
    );
    expect(error.code).toBe<ErrorCode>('E_IO');
    expect(error.message).toContain(join(out, 'tarballs', 'alpha-1.0.0.tgz'));
    expect(error.hint).toMatch(/move aside/);
  });

  it('errors.md E_IO: a registry file that cannot be replaced (immutable, even for root) is E_IO naming it, never E_STORE_READONLY', async () => {
    const base = await tempDir();
    await writePlugin(join(base, 'src', 'alpha'), { name: 'alpha', version: '1.0.0' });
    const out = join(base, 'out');
    await buildRegistry({ pluginsDir: join(base, 'src'), outDir: out, name: 'acme' });
    const page = join(out, 'index.html');
    execFileSync('chattr', ['+i', page]);
    // A page with other bytes to write: one with the same bytes is left as it is (N9).
    await writePlugin(join(base, 'src', 'alpha'), {
      name: 'alpha',
      version: '1.0.0',
      description: 'Changed',
    });
    try {
      const error = await failure(
        buildRegistry({ pluginsDir: join(base, 'src'), outDir: out, name: 'acme' }),
      );
      expect(error.code).toBe<ErrorCode>('E_IO');
      expect(error.message).toBe(`cannot write ${page}: operation not permitted (EPERM)`);
      expect(`${error.message} ${error.hint}`).not.toMatch(/store|HOOKPM_HOME/);
    } finally {
      execFileSync('chattr', ['-i', page]);
    }
  });

  it('errors.md E_IO: an output directory that takes no lock file (immutable) is E_IO naming the lock, never E_STORE_READONLY', async () => {
    const base = await tempDir();
    await writePlugin(join(base, 'src', 'alpha'), { name: 'alpha', version: '1.0.0' });
    const out = join(base, 'out');
    await mkdir(out);
    execFileSync('chattr', ['+i', out]);
    try {
      const error = await failure(
        buildRegistry({ pluginsDir: join(base, 'src'), outDir: out, name: 'acme' }),
      );
      expect(error.code).toBe<ErrorCode>('E_IO');
      expect(error.message).toContain(join(out, '.build.lock'));
      expect(`${error.message} ${error.hint}`).not.toMatch(/store|HOOKPM_HOME/);
    } finally {
      execFileSync('chattr', ['-i', out]);
    }
  });

  it('N1, N11: a plugin whose sparse document would pass the cap a client reads under is E_REGISTRY_TOO_LARGE naming it; nothing changes', async () => {
    const base = await tempDir();
    await writePlugin(join(base, 'src', 'alpha'), { name: 'alpha', version: '1.0.0' });
    const out = join(base, 'out');
    await buildRegistry({ pluginsDir: join(base, 'src'), outDir: out });
    const before = await tree(out);
    // 9 MB of description: under the 20 MiB a file may hold, over the 8 MiB a document may.
    const description = 'x'.repeat(9_000_000);
    await writePlugin(join(base, 'src', 'huge'), { name: 'huge', version: '1.0.0', description });
    const error = await failure(buildRegistry({ pluginsDir: join(base, 'src'), outDir: out }));
    expect(error.code).toBe<ErrorCode>('E_REGISTRY_TOO_LARGE');
    expect(error.message).toContain('plugins/hu/huge.json of the plugin huge');
    expect(error.message.length).toBeLessThan(300);
    expect(await tree(out)).toEqual(before);
  });

  it('I1: two versions whose tarballs have one name (a-1.0.0 1.0.0, a 1.0.0-1.0.0) are E_USAGE naming both; the tarball published before stays', async () => {
    const base = await tempDir();
    await writePlugin(join(base, 'src', 'a'), { name: 'a', version: '1.0.0-1.0.0' });
    const out = join(base, 'out');
    await buildRegistry({ pluginsDir: join(base, 'src'), outDir: out });
    const before = await tree(out);
    await writePlugin(join(base, 'src', 'b'), { name: 'a-1.0.0', version: '1.0.0' });
    const error = await failure(buildRegistry({ pluginsDir: join(base, 'src'), outDir: out }));
    expect(error.code).toBe<ErrorCode>('E_USAGE');
    expect(error.message).toBe(
      'a@1.0.0-1.0.0 and a-1.0.0@1.0.0 would both be tarballs/a-1.0.0-1.0.0.tgz',
    );
    expect(await tree(out)).toEqual(before);
  });

  it('I1: the same name and version from two source directories is refused', async () => {
    const base = await tempDir();
    await writePlugin(join(base, 'src', 'alpha'), { name: 'alpha', version: '1.0.0' });
    await cp(join(base, 'src', 'alpha'), join(base, 'old', 'alpha-copy'), { recursive: true });
    const error = await failure(
      buildRegistry({
        pluginsDir: join(base, 'src'),
        historyDir: join(base, 'old'),
        outDir: join(base, 'out'),
      }),
    );
    expect(error.code).toBe<ErrorCode>('E_USAGE');
    expect(error.message).toContain('alpha@1.0.0');
  });

  it('registry.md section 1: an invalid registry name is a usage error; dates normalise to whole seconds in UTC', async () => {
    const base = await tempDir();
    await writePlugin(join(base, 'src', 'alpha'), { name: 'alpha', version: '1.0.0' });
    const error = await failure(
      buildRegistry({ pluginsDir: join(base, 'src'), outDir: join(base, 'Out Dir') }),
    );
    expect(error.code).toBe<ErrorCode>('E_USAGE');
    expect(normaliseDate('1793491200')).toBe('2026-11-01T00:00:00Z');
    expect(normaliseDate('2026-11-01T01:00:00.000+01:00')).toBe('2026-11-01T00:00:00Z');
    expect(() => normaliseDate('yesterday')).toThrow(HookpmError);
  });

  it('cli.md pack, registry build: a --published-at that names no one instant (a day that does not exist, a time without its zone) is a usage error, never another date', () => {
    expect(normaliseDate('2026-11-01')).toBe('2026-11-01T00:00:00Z');
    expect(normaliseDate('2026-11-01T00:00Z')).toBe('2026-11-01T00:00:00Z');
    // A time without a zone would be read in the packer's own time zone: not reproducible.
    for (const value of ['2024-02-30', '2026-13-01', '2026-11-01T00:00:00', '2026-11-01T24:30Z'])
      expect(() => normaliseDate(value), value).toThrow(HookpmError);
    expect(() => normaliseDate('November 1, 2026')).toThrow(HookpmError);
  });

  it('A22: a rebuild keeps the publish time recorded for a version with the same bytes, in index.json and the sparse layout; a new version, or changed bytes, gets the date given', async () => {
    const base = await tempDir();
    const out = join(base, 'out');
    await writePlugin(join(base, 'src', 'alpha'), { name: 'alpha', version: '1.0.0' });
    await writePlugin(join(base, 'src', 'beta'), { name: 'beta', version: '1.0.0' });
    await buildRegistry({ pluginsDir: join(base, 'src'), outDir: out, publishedAt: '2026-10-01' });
    await writePlugin(join(base, 'old', 'alpha-0.9.0'), { name: 'alpha', version: '0.9.0' });
    await writePlugin(join(base, 'src', 'beta'), {
      name: 'beta',
      version: '1.0.0',
      command: 'echo changed',
    });
    const times = async (): Promise<Record<string, string | undefined>> => {
      const index = parseIndex(
        JSON.parse(await readFile(join(out, 'index.json'), 'utf8')),
        'index.json',
      );
      const sparse = JSON.parse(
        await readFile(join(out, 'plugins', 'al', 'alpha.json'), 'utf8'),
      ) as {
        versions: Record<string, { publishedAt?: string }>;
      };
      return {
        'alpha@0.9.0': index.plugins['alpha']?.versions['0.9.0']?.publishedAt,
        'alpha@1.0.0': index.plugins['alpha']?.versions['1.0.0']?.publishedAt,
        'alpha@1.0.0 (sparse)': sparse.versions['1.0.0']?.publishedAt,
        'beta@1.0.0': index.plugins['beta']?.versions['1.0.0']?.publishedAt,
      };
    };
    await buildRegistry({
      pluginsDir: join(base, 'src'),
      historyDir: join(base, 'old'),
      outDir: out,
      publishedAt: '2026-11-15',
    });
    expect(await times()).toEqual({
      'alpha@0.9.0': '2026-11-15T00:00:00Z',
      'alpha@1.0.0': '2026-10-01T00:00:00Z',
      'alpha@1.0.0 (sparse)': '2026-10-01T00:00:00Z',
      'beta@1.0.0': '2026-11-15T00:00:00Z',
    });
    // Without a date, what the index records stays.
    await buildRegistry({
      pluginsDir: join(base, 'src'),
      historyDir: join(base, 'old'),
      outDir: out,
    });
    expect((await times())['alpha@1.0.0']).toBe('2026-10-01T00:00:00Z');
    expect((await times())['beta@1.0.0']).toBe('2026-11-15T00:00:00Z');
  });

  it('D7: a FIFO where index.json or a sparse document was is replaced, never read (the build does not hang)', async () => {
    const base = await tempDir();
    await writePlugin(join(base, 'src', 'alpha'), { name: 'alpha', version: '1.0.0' });
    const out = join(base, 'out');
    await mkdir(join(out, 'plugins', 'al'), { recursive: true });
    for (const file of ['index.json', 'registry.json', join('plugins', 'al', 'alpha.json')])
      execFileSync('mkfifo', [join(out, file)]);
    const built = await buildRegistry({ pluginsDir: join(base, 'src'), outDir: out });
    expect(Object.keys(built.index.plugins)).toEqual(['alpha']);
    for (const file of ['index.json', 'registry.json', join('plugins', 'al', 'alpha.json')])
      expect((await lstat(join(out, file))).isFile()).toBe(true);
  }, 10_000);

  it('N9: a rebuild removes the documents and search pages of plugins no longer built, and no file or folder of plugins/ or search/ a build does not write', async () => {
    const base = await tempDir();
    await writePlugin(join(base, 'src', 'alpha'), { name: 'alpha', version: '1.0.0' });
    await writePlugin(join(base, 'src', 'beta'), { name: 'beta', version: '1.0.0' });
    const out = join(base, 'out');
    await buildRegistry({ pluginsDir: join(base, 'src'), outDir: out });
    const foreign = [
      'plugins/README.json',
      'plugins/al/Notes.json',
      'plugins/al/beta.json',
      'plugins/drafts/gamma.json',
      'search/notes.json',
      'search/be-x.json',
    ];
    for (const file of foreign) {
      await mkdir(join(out, file, '..'), { recursive: true });
      await writeFile(join(out, file), '{"mine": true}\n');
    }
    await mkdir(join(out, 'plugins', 'empty'));
    await rm(join(base, 'src', 'beta'), { recursive: true });
    const rebuilt = await buildRegistry({ pluginsDir: join(base, 'src'), outDir: out });
    expect(rebuilt.sparse?.removed).toEqual(['plugins/be/beta.json', 'search/be.json']);
    for (const file of foreign)
      expect(await readFile(join(out, file), 'utf8'), file).toBe('{"mine": true}\n');
    expect((await readdir(join(out, 'plugins'))).sort()).toEqual([
      'README.json',
      'al',
      'drafts',
      'empty',
    ]);
  });

  it('J2: a tarballs/, plugins/, plugins/<shard>/ or search/ that is a symlink out of the output directory is E_SYMLINK_ESCAPE; nothing written or removed there', async () => {
    const base = await tempDir();
    await writePlugin(join(base, 'src', 'alpha'), { name: 'alpha', version: '1.0.0' });
    for (const dir of ['tarballs', 'plugins', 'search', 'plugins/al']) {
      const victim = join(base, `victim-${dir.replace('/', '-')}`);
      await mkdir(join(victim, 'al'), { recursive: true });
      await writeFile(join(victim, 'mine.json'), '{"mine": 1}\n');
      await writeFile(join(victim, 'al', 'mine.json'), '{"mine": 2}\n');
      await writeFile(join(victim, 'mine.tgz'), 'mine\n');
      const out = join(base, `out-${dir.replace('/', '-')}`);
      await mkdir(join(out, dir, '..'), { recursive: true });
      await symlink(victim, join(out, dir));
      const before = await tree(victim);
      const error = await failure(buildRegistry({ pluginsDir: join(base, 'src'), outDir: out }));
      expect(error.code).toBe<ErrorCode>('E_SYMLINK_ESCAPE');
      expect(error.message).toContain(join(out, dir));
      expect(await tree(victim)).toEqual(before);
      expect(await readdir(out)).toEqual([dir.split('/')[0]]);
    }
  });

  it('cli.md registry build: an output directory that is a file is E_USAGE naming it, and the file stays', async () => {
    const base = await tempDir();
    await writePlugin(join(base, 'src', 'alpha'), { name: 'alpha', version: '1.0.0' });
    await writeFile(join(base, 'out'), 'not a directory\n');
    const error = await failure(
      buildRegistry({ pluginsDir: join(base, 'src'), outDir: join(base, 'out') }),
    );
    expect(error.code).toBe<ErrorCode>('E_USAGE');
    expect(error.message).toContain(join(base, 'out'));
    expect(await readFile(join(base, 'out'), 'utf8')).toBe('not a directory\n');
  });

  it('D3: two builds into one output directory run one after the other, so its sparse layout names the plugins its index.json does', async () => {
    const base = await tempDir();
    for (let i = 0; i < 20; i += 1) {
      await writePlugin(join(base, 'a', `alpha${i}`), { name: `alpha${i}`, version: '1.0.0' });
      await writePlugin(join(base, 'b', `beta${i}`), { name: `beta${i}`, version: '1.0.0' });
    }
    const out = join(base, 'out');
    await Promise.all([
      buildRegistry({ pluginsDir: join(base, 'a'), outDir: out }),
      buildRegistry({ pluginsDir: join(base, 'b'), outDir: out }),
    ]);
    const index = parseIndex(JSON.parse(await readFile(join(out, 'index.json'), 'utf8')), 'x');
    const names = Object.keys(index.plugins).sort();
    const documents = [...(await tree(join(out, 'plugins'))).keys()]
      .map((path) => path.replace(/^.*\/|\.json$/g, ''))
      .sort();
    expect(documents).toEqual(names);
    expect((await readdir(join(out, 'tarballs'))).length).toBe(names.length);
    expect((await readdir(out)).filter((n) => n.startsWith('.'))).toEqual([]);
  });

  it('D3, D4: a build killed midway leaves its scratch directory and lock; the next build takes the lock over and removes both', async () => {
    const base = await tempDir();
    await writePlugin(join(base, 'src', 'alpha'), { name: 'alpha', version: '1.0.0' });
    const out = join(base, 'out');
    await mkdir(join(out, '.build-dead01'), { recursive: true });
    await writeFile(join(out, '.build-dead01', 'alpha-1.0.0.tgz'), 'half a tarball');
    const dead = {
      pid: 2 ** 22 + 1,
      hostname: hostname(),
      startedAt: '2026-01-01T00:00:00Z',
      token: 'a'.repeat(32),
    };
    await writeFile(join(out, '.build.lock'), JSON.stringify(dead));
    await buildRegistry({ pluginsDir: join(base, 'src'), outDir: out });
    expect((await readdir(out)).sort()).toEqual(BUILT);
  });

  it('D2, N9: the temporary files a build killed midway left beside index.json, a plugin document or a search page are removed by the next build, which a static server would serve', async () => {
    const base = await tempDir();
    await writePlugin(join(base, 'src', 'alpha'), { name: 'alpha', version: '1.0.0' });
    const out = join(base, 'out');
    const opts = { pluginsDir: join(base, 'src'), outDir: out };
    await buildRegistry(opts);
    const before = await tree(out);
    const left = [
      '.index.json.tmp-4194305-0a1b2c3d',
      '.registry.json.tmp-4194305-0a1b2c3d',
      'plugins/al/.alpha.json.tmp-4194305-0a1b2c3d',
      'search/.al.json.tmp-4194305-0a1b2c3d',
    ];
    for (const file of left) await writeFile(join(out, file), 'half a document');
    await writeFile(join(out, 'plugins', 'al', 'notes.txt'), 'the user’s');
    await buildRegistry(opts);
    const after = await tree(out);
    expect([...after.keys()].sort()).toEqual([...before.keys(), 'plugins/al/notes.txt'].sort());
  });
});
