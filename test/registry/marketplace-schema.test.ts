import { describe, expect, it } from 'vitest';
import {
  parseMarketplace,
  parseMarketplaceText,
} from '../../src/registry/marketplace/marketplace-schema.js';
import { normalizeRelativePath } from '../../src/registry/marketplace/marketplace-source-schema.js';
import { resolveEntryPath } from '../../src/registry/marketplace/entry-path.js';

const FILE = '.claude-plugin/marketplace.json';
const SHA = '0123456789abcdef0123456789abcdef01234567';

function catalog(plugins: unknown[], extra: Record<string, unknown> = {}): unknown {
  return { name: 'acme', owner: { name: 'Acme' }, plugins, ...extra };
}

describe('parseMarketplace (registry.md 1, kind marketplace)', () => {
  it.each([
    ['./plugins/guard', { kind: 'path', path: 'plugins/guard', climbs: 0 }],
    ['./', { kind: 'path', path: '.', climbs: 0 }],
    ['./a/../b/./c', { kind: 'path', path: 'b/c', climbs: 0 }],
    ['./../../', { kind: 'path', path: '../..', climbs: 2 }],
    [
      { source: 'github', repo: 'acme/guard' },
      { kind: 'git', from: 'github', url: 'https://github.com/acme/guard.git' },
    ],
    [
      { source: 'github', repo: 'acme/guard', ref: 'v2', sha: SHA.toUpperCase() },
      {
        kind: 'git',
        from: 'github',
        url: 'https://github.com/acme/guard.git',
        ref: 'v2',
        sha: SHA,
      },
    ],
    [
      { source: 'url', url: 'https://gitlab.com/a/b.git', sha: SHA },
      { kind: 'git', from: 'url', url: 'https://gitlab.com/a/b.git', sha: SHA },
    ],
    [
      { source: 'url', url: 'https://github.com/a/b.git', path: 'plugins/x', sha: SHA },
      { kind: 'git', from: 'url', url: 'https://github.com/a/b.git', path: 'plugins/x', sha: SHA },
    ],
    [
      { source: 'git-subdir', url: 'https://github.com/a/b', path: './p/q/', ref: 'main' },
      { kind: 'git', from: 'git-subdir', url: 'https://github.com/a/b', path: 'p/q', ref: 'main' },
    ],
    [
      { source: 'git-subdir', url: 'a/b', path: 'p' },
      { kind: 'git', from: 'git-subdir', url: 'https://github.com/a/b.git', path: 'p' },
    ],
    [
      { source: 'url', url: 'git@github.com:a/b.git' },
      { kind: 'git', from: 'url', url: 'git@github.com:a/b.git' },
    ],
    [
      {
        source: 'npm',
        package: '@acme/guard',
        version: '^1.2.0',
        registry: 'https://npm.acme.test/',
      },
      {
        kind: 'npm',
        package: '@acme/guard',
        version: '^1.2.0',
        registry: 'https://npm.acme.test/',
      },
    ],
    [
      { source: 'npm', package: 'guard', version: 'beta' },
      { kind: 'npm', package: 'guard', version: 'beta' },
    ],
  ])('source %j is read as %j', (source, expected) => {
    const parsed = parseMarketplace(catalog([{ name: 'guard', source }]), FILE);
    expect(parsed.diagnostics).toEqual([]);
    expect(parsed.marketplace?.plugins[0]?.source).toEqual(expected);
  });

  it.each([
    ['plugins/guard', 'source "plugins/guard" must start with "./"'],
    ['/etc', 'must start with "./"'],
    ['.\\x', 'must start with "./"'],
    [5, 'source must be a "./" path or a source object, found 5'],
    [{ source: 'pip', package: 'x' }, 'source.source is "pip"; hookpm installs the source kinds'],
    [{ source: 'github', repo: 'acme' }, 'source.repo must be "owner/name"'],
    [{ source: 'github', repo: 'acme/../x' }, 'source.repo must be "owner/name"'],
    [
      { source: 'github', repo: 'a/b', ref: '--upload-pack=x' },
      'source.ref must be a branch or tag name',
    ],
    [{ source: 'github', repo: 'a/b', sha: 'abc' }, 'source.sha must be a full commit id'],
    [
      { source: 'url', url: 'http://example.com/x.git' },
      'source.url refusing to clone over plain http',
    ],
    [{ source: 'url', url: 'ext::sh -c id' }, 'source.url'],
    [
      { source: 'git-subdir', url: 'https://github.com/a/b.git', path: '../x' },
      'source.path "../x" climbs out of the repository',
    ],
    [
      { source: 'git-subdir', url: 'https://github.com/a/b.git' },
      'source.path must be a path inside the repository',
    ],
    [{ source: 'npm', package: 'Bad Name' }, 'source.package must be an npm package name'],
    [{ source: 'npm', package: 'x', registry: 'http://npm.example.com/' }, 'source.registry'],
  ])('an entry with source %j is rejected naming the entry: %s', (source, words) => {
    const parsed = parseMarketplace(
      catalog([
        { name: 'ok', source: './ok' },
        { name: 'bad', source },
      ]),
      FILE,
    );
    expect(parsed.marketplace?.plugins.map((p) => p.name)).toEqual(['ok']);
    expect(parsed.diagnostics).toHaveLength(1);
    const [d] = parsed.diagnostics;
    expect(d?.code).toBe('invalid_marketplace_entry');
    expect(d?.path).toBe(`${FILE}:plugins[1].source`);
    expect(d?.message).toContain(`${FILE}:plugins[1] ("bad")`);
    expect(d?.message).toContain(words);
  });

  it.each([
    [
      { name: 'Guard', source: './g' },
      'plugins[0].name',
      'name "Guard" is not a valid plugin name',
    ],
    [{ name: '../x', source: './g' }, 'plugins[0].name', 'is not a valid plugin name'],
    [{ name: 'g', source: './g', version: 'one' }, 'plugins[0].version', 'version'],
    [{ name: 'g', source: './g', hooks: 5 }, 'plugins[0].hooks', 'hooks'],
    [{ name: 'g', source: './g', strict: 'no' }, 'plugins[0].strict', 'strict'],
    [{ name: 'g', source: './g', keywords: 'a' }, 'plugins[0].keywords', 'keywords'],
    ['just a string', 'plugins[0]', 'a plugin entry must be an object'],
  ])('P2/P3: entry %j is validated like a manifest (%s)', (entry, path, words) => {
    const parsed = parseMarketplace(catalog([entry]), FILE);
    expect(parsed.marketplace?.plugins).toEqual([]);
    expect(parsed.diagnostics[0]?.path).toBe(`${FILE}:${path}`);
    expect(parsed.diagnostics[0]?.message).toContain(words);
  });

  it.each([
    [
      { hooks: 5 },
      'hooks must be a "./" path string, an array of them, or an inline hooks object, found 5',
    ],
    [
      { author: 5 },
      'author must be a string or an object {name, email?, url?} of strings, found 5',
    ],
    [{ repository: [] }, 'repository must be a string or an object, found an empty array'],
  ])(
    'P2: entry field %j is named with what it must be, as in a manifest, not "Invalid input"',
    (extra, words) => {
      const parsed = parseMarketplace(catalog([{ name: 'g', source: './g', ...extra }]), FILE);
      expect(parsed.diagnostics[0]?.message).toBe(`${FILE}:plugins[0] ("g"): ${words}`);
    },
  );

  it.each([
    ['../outside.json', 'hooks', 'contains a ".." segment'],
    [['./ok.json', '/etc/hooks.json'], 'hooks[1]', 'is absolute'],
    ['hooks.json', 'hooks', 'must start with "./"'],
  ])(
    'plugins.md H2: entry hooks path %j breaking the path rules leaves the entry out, named',
    (hooks, at, words) => {
      const parsed = parseMarketplace(catalog([{ name: 'g', source: './g', hooks }]), FILE);
      expect(parsed.marketplace?.plugins).toEqual([]);
      expect(parsed.diagnostics[0]?.path).toBe(`${FILE}:plugins[0].hooks`);
      expect(parsed.diagnostics[0]?.message).toContain(`plugins[0] ("g"): ${at} `);
      expect(parsed.diagnostics[0]?.message).toContain(words);
    },
  );

  it('keeps catalog fields, inline hooks and the ignored commands/agents/skills/mcpServers', () => {
    const hooks = { Stop: [{ hooks: [{ type: 'command', command: 'true' }] }] };
    const parsed = parseMarketplace(
      catalog(
        [
          {
            name: 'g',
            source: './g',
            strict: false,
            hooks,
            category: 'x',
            tags: ['t'],
            skills: ['./s'],
            mcpServers: {},
          },
        ],
        {
          metadata: { description: 'd', version: '1.0.0' },
        },
      ),
      FILE,
    );
    expect(parsed.diagnostics).toEqual([]);
    const entry = parsed.marketplace?.plugins[0];
    expect(entry).toMatchObject({ index: 0, name: 'g', strict: false, category: 'x', tags: ['t'] });
    expect(entry?.manifest.hooks).toEqual(hooks);
    expect(parsed.marketplace).toMatchObject({ name: 'acme', description: 'd', version: '1.0.0' });
  });

  it('a second entry of the same name is rejected, the first kept', () => {
    const parsed = parseMarketplace(
      catalog([
        { name: 'g', source: './a' },
        { name: 'g', source: './b' },
      ]),
      FILE,
    );
    expect(parsed.marketplace?.plugins.map((p) => p.source)).toEqual([
      { kind: 'path', path: 'a', climbs: 0 },
    ]);
    expect(parsed.diagnostics[0]?.path).toBe(`${FILE}:plugins[1].name`);
  });

  it('metadata.pluginRoot is prepended to bare relative sources', () => {
    const parsed = parseMarketplace(
      catalog(
        [
          { name: 'g', source: 'guard' },
          { name: 'h', source: './h' },
        ],
        { metadata: { pluginRoot: './plugins' } },
      ),
      FILE,
    );
    expect(parsed.marketplace?.plugins.map((p) => p.source)).toEqual([
      { kind: 'path', path: 'plugins/guard', climbs: 0 },
      { kind: 'path', path: 'h', climbs: 0 },
    ]);
  });

  it.each([
    [{ agents: [] }, 'not a marketplace catalog: name is missing'],
    [{ name: 'x', owner: { name: 'o' }, plugins: {} }, 'plugins is an object, expected an array'],
    [[], 'must be a JSON object, found an empty array'],
  ])('a document that is not a catalog (%j) is rejected as a whole', (value, words) => {
    const parsed = parseMarketplace(value, FILE);
    expect(parsed.marketplace).toBe(null);
    expect(parsed.diagnostics[0]?.code).toBe('invalid_marketplace');
    expect(parsed.diagnostics[0]?.message).toContain(words);
  });

  it('P4: invalid JSON and duplicate keys are errors with a position', () => {
    const local = { origin: 'local' } as const;
    expect(parseMarketplaceText('{"name": "a",}', FILE, local).diagnostics[0]?.message).toMatch(
      /marketplace\.json:1:\d+: invalid JSON/,
    );
    const dup = parseMarketplaceText(
      '{"name":"a","name":"b","owner":{"name":"o"},"plugins":[]}',
      FILE,
      local,
    );
    expect(dup.marketplace).toBe(null);
    expect(dup.diagnostics[0]?.message).toContain('duplicate key');
  });
});

describe('a registry reading a catalog of many invalid entries (security.md: bounded)', () => {
  it('registry.md 1: past maxExcluded, invalid and repeated entries are counted, with no diagnostic or excluded entry of their own; the valid ones all stay', () => {
    const plugins = [
      ...Array.from({ length: 3_000 }, () => ({})),
      { name: 'good', source: './good' },
      { name: 'good', source: './again' },
      { name: 'late', source: './late' },
    ];
    const parsed = parseMarketplace(catalog(plugins), FILE, { maxExcluded: 10 });
    expect(parsed.marketplace?.plugins.map((p) => p.name)).toEqual(['good', 'late']);
    expect(parsed.excluded).toHaveLength(10);
    expect(parsed.excludedMore).toBe(2_991);
    expect(parsed.diagnostics.length).toBeLessThanOrEqual(20);
    const whole = parseMarketplace(catalog(plugins), FILE);
    expect(whole.excluded).toHaveLength(3_001);
    expect(whole.excludedMore).toBe(0);
  });
});

describe('J14: the sources a catalog may name depend on where it was read from', () => {
  const onThisMachine: [unknown, string][] = [
    [{ source: 'npm', package: 'guard', registry: 'file:///home/me/secret/' }, 'source.registry'],
    [{ source: 'npm', package: 'guard', registry: 'FILE://localhost/etc/' }, 'source.registry'],
    [{ source: 'url', url: 'file:///home/me/repo' }, 'source.url'],
    [{ source: 'url', url: '/home/me/repo' }, 'source.url'],
    [{ source: 'git-subdir', url: 'file:///home/me/repo', path: 'p' }, 'source.url'],
  ];

  it.each(onThisMachine)(
    'J14: from a remote catalog, %j is left out with E_INSECURE_URL naming the entry and %s',
    (source, at) => {
      const parsed = parseMarketplace(catalog([{ name: 'guard', source }]), FILE, {
        origin: 'remote',
      });
      expect(parsed.marketplace?.plugins).toEqual([]);
      expect(parsed.diagnostics.map((d) => d.code)).toEqual(['invalid_marketplace_entry']);
      expect(parsed.excluded).toEqual([
        {
          name: 'guard',
          message: expect.stringContaining(`plugins[0] ("guard"): ${at} names`),
          code: 'E_INSECURE_URL',
          hint: expect.stringContaining('marketplace on this machine'),
        },
      ]);
    },
  );

  it.each(onThisMachine)('J14: from a local catalog, %j is kept', (source) => {
    for (const opts of [{}, { origin: 'local' } as const]) {
      const parsed = parseMarketplace(catalog([{ name: 'guard', source }]), FILE, opts);
      expect(parsed.diagnostics).toEqual([]);
      expect(parsed.marketplace?.plugins).toHaveLength(1);
    }
  });

  it.each([
    ['./plugins/guard'],
    ['./../guard'],
    [{ source: 'github', repo: 'acme/guard' }],
    [{ source: 'url', url: 'https://gitlab.com/a/b.git' }],
    [{ source: 'url', url: 'http://127.0.0.1:8080/a/b.git' }],
    [{ source: 'url', url: 'git@github.com:a/b.git' }],
    [{ source: 'npm', package: 'guard' }],
    [{ source: 'npm', package: 'guard', registry: 'https://npm.acme.test/' }],
  ])('J14: from a remote catalog, the network source %j is kept', (source) => {
    const parsed = parseMarketplace(catalog([{ name: 'guard', source }]), FILE, {
      origin: 'remote',
    });
    expect(parsed.diagnostics).toEqual([]);
    expect(parsed.marketplace?.plugins).toHaveLength(1);
  });
});

describe('relative sources and their boundary', () => {
  it.each([
    ['./a/b', 'a/b', 0],
    ['./../x', '../x', 1],
    ['./a/../../..', '../..', 2],
  ])('normalizeRelativePath(%s) is %s climbing %i', (raw, path, climbs) => {
    expect(normalizeRelativePath(raw)).toEqual({ path, climbs });
  });

  it('a source may climb inside the repository, never out of it', () => {
    const roots = { root: '/repo/.dev-marketplace', boundary: '/repo' };
    expect(resolveEntryPath(roots, '..')).toBe('/repo');
    expect(resolveEntryPath(roots, '../..')).toBe(null);
    expect(resolveEntryPath({ root: '/m', boundary: '/m' }, '..')).toBe(null);
    expect(resolveEntryPath({ root: '/m', boundary: '/m' }, 'p')).toBe('/m/p');
  });
});
