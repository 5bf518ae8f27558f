/**
 * The formats of hookpm.json and hookpm.lock as pure functions (sorted keys, trailing newline,
 * strict parsing), and how the two files are compared (E_LOCK_MISMATCH).
 */
import { describe, expect, it } from 'vitest';
import { isHookpmError, redact, type HookpmError } from '../../src/errors.js';
import {
  describeMismatches,
  findLockMismatches,
  MISMATCHES_SHOWN,
} from '../../src/project/lock-agreement.js';
import { parseLockfile, serializeLockfile, type Lockfile } from '../../src/project/lockfile.js';
import {
  MAX_RANGE_LENGTH,
  parseProjectManifest,
  serializeProjectManifest,
} from '../../src/project/project-manifest.js';

const entry = {
  version: '1.1.0',
  resolved: 'https://r.example/tarballs/guard-1.1.0.tgz',
  integrity: 'sha512-AAAA',
  surfaceHash: 'abc',
  fingerprint: 'sha256-BBBB',
};

function code(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return isHookpmError(error) ? error.code : 'not a HookpmError';
  }
  return undefined;
}

describe('hookpm.lock', () => {
  it('is written with sorted keys at every depth and one trailing newline, whatever the input order', () => {
    const a: Lockfile = { lockfileVersion: 1, plugins: { 'zeta@r': entry, 'alpha@r': entry } };
    const reordered = Object.fromEntries(Object.entries(entry).reverse()) as typeof entry;
    const b: Lockfile = {
      lockfileVersion: 1,
      plugins: { 'alpha@r': reordered, 'zeta@r': reordered },
    };
    const text = serializeLockfile(a);
    expect(serializeLockfile(b)).toBe(text);
    expect(text.endsWith('}\n')).toBe(true);
    expect(text.endsWith('\n\n')).toBe(false);
    expect(text.indexOf('alpha@r')).toBeLessThan(text.indexOf('zeta@r'));
    expect(text.indexOf('"fingerprint"')).toBeLessThan(text.indexOf('"version"'));
    expect(parseLockfile(text, 'hookpm.lock')).toStrictEqual(a);
  });

  it.each([
    ['not JSON', '{"lockfileVersion": 1,'],
    ['a duplicate key', '{"lockfileVersion": 1, "lockfileVersion": 1, "plugins": {}}'],
    ['a newer version', '{"lockfileVersion": 2, "plugins": {}}'],
    ['an unknown key', '{"lockfileVersion": 1, "plugins": {}, "x": 1}'],
    ['an id that is none', JSON.stringify({ lockfileVersion: 1, plugins: { guard: entry } })],
    [
      'an entry without integrity',
      JSON.stringify({
        lockfileVersion: 1,
        plugins: { 'g@r': { ...entry, integrity: undefined } },
      }),
    ],
    [
      'a sha1 integrity',
      JSON.stringify({ lockfileVersion: 1, plugins: { 'g@r': { ...entry, integrity: 'sha1-x' } } }),
    ],
    ...[
      ['a local file URL', 'file:///etc/passwd'],
      ['an absolute path', '/etc/x.tgz'],
      ['a path that leaves the registry', 'tarballs/../../x.tgz'],
      ['an encoded `..`', '%2E%2E/x.tgz'],
      ['an http URL no URL parser reads', 'http://[::1'],
      ['an http URL with an invalid host', 'http://%zz/'],
    ].map(([what, resolved]) => [
      what!,
      JSON.stringify({ lockfileVersion: 1, plugins: { 'g@r': { ...entry, resolved } } }),
    ]),
    [
      'an absolute time field',
      JSON.stringify({ lockfileVersion: 1, plugins: { 'g@r': { ...entry, at: 'now' } } }),
    ],
  ])('a lock with %s is refused with E_PROJECT_FILE', (_what, text) => {
    expect(code(() => parseLockfile(text, 'hookpm.lock'))).toBe('E_PROJECT_FILE');
  });
});

describe('hookpm.lock resolved locations (a project file is untrusted input)', () => {
  it('accepts an http(s) URL and a path inside the registry', () => {
    for (const resolved of [
      'https://r.example/t/g-1.tgz',
      'http://127.0.0.1:9/t/g.tgz',
      'tarballs/guard-1.1.0.tgz',
    ]) {
      const text = JSON.stringify({
        lockfileVersion: 1,
        plugins: { 'g@r': { ...entry, resolved } },
      });
      expect(parseLockfile(text, 'hookpm.lock').plugins['g@r']?.resolved).toBe(resolved);
    }
  });
});

describe('hookpm.lock commit of a git marketplace plugin (J12)', () => {
  const commit = '0123456789abcdef0123456789abcdef01234567';
  const withCommit = (value: unknown): string =>
    JSON.stringify({
      lockfileVersion: 1,
      plugins: { 'g@m': { ...entry, resolved: 'plugins/g', commit: value } },
    });

  it('J12: a full commit id round-trips, and an entry without one is written without the key', () => {
    const lock = parseLockfile(withCommit(commit), 'hookpm.lock');
    expect(lock.plugins['g@m']?.commit).toBe(commit);
    const text = serializeLockfile(lock);
    expect(parseLockfile(text, 'hookpm.lock')).toStrictEqual(lock);
    expect(serializeLockfile({ lockfileVersion: 1, plugins: { 'g@r': entry } })).not.toContain(
      'commit',
    );
  });

  it.each([
    ['a branch name', 'main'],
    ['uppercase hex', commit.toUpperCase()],
    ['a short id', commit.slice(0, 12)],
    ['an option', '--upload-pack=touch x'],
    ['a number', 7],
    ['an empty string', ''],
  ])('J12: a commit that is %s is refused with E_PROJECT_FILE', (_what, value) => {
    expect(code(() => parseLockfile(withCommit(value), 'hookpm.lock'))).toBe('E_PROJECT_FILE');
  });
});

describe('hookpm.json', () => {
  it('round-trips, sorted, with both keys always written', () => {
    const text = serializeProjectManifest({
      plugins: { 'b@x': '^1.0.0', 'a@x': 'latest' },
      registries: {},
    });
    expect(text).toBe(
      '{\n  "plugins": {\n    "a@x": "latest",\n    "b@x": "^1.0.0"\n  },\n  "registries": {}\n}\n',
    );
    expect(parseProjectManifest(text, 'hookpm.json')).toStrictEqual({
      plugins: { 'a@x': 'latest', 'b@x': '^1.0.0' },
      registries: {},
    });
  });

  it.each([
    ['an unknown key', '{"plugins": {}, "dependencies": {}}'],
    ['a bare name', '{"plugins": {"guard": "^1.0.0"}}'],
    ['a range that is none', '{"plugins": {"guard@x": ">>1"}}'],
    ['a registry location that is empty', '{"registries": {"acme": ""}}'],
    ['a __proto__ key', '{"plugins": {"__proto__": "^1"}}'],
    ['plugins null', '{"plugins": null}'],
    ['registries null', '{"registries": null}'],
    // registry.md D1b, policy.md A12: `local` is the registry of paths and tarballs, never an index.
    ['a registry named local', '{"registries": {"local": "reg"}}'],
  ])('a hookpm.json with %s is refused with E_PROJECT_FILE', (_what, text) => {
    expect(code(() => parseProjectManifest(text, 'hookpm.json'))).toBe('E_PROJECT_FILE');
  });

  it('a hookpm.lock whose plugins are null is refused, not read as an empty lock', () => {
    const text = '{"lockfileVersion": 1, "plugins": null}';
    expect(code(() => parseLockfile(text, 'hookpm.lock'))).toBe('E_PROJECT_FILE');
  });
});

describe('hookpm.json against hookpm.lock (E_LOCK_MISMATCH)', () => {
  const lock: Lockfile = { lockfileVersion: 1, plugins: { 'guard@r': entry } };
  it('agree when every id is locked at a version in its range', () => {
    expect(findLockMismatches({ plugins: { 'guard@r': '^1.0.0' }, registries: {} }, lock)).toEqual(
      [],
    );
    expect(findLockMismatches({ plugins: { 'guard@r': 'latest' }, registries: {} }, lock)).toEqual(
      [],
    );
  });
  it('disagree on a plugin added by hand, one removed, and a range the lock is outside of', () => {
    expect(
      findLockMismatches(
        { plugins: { 'guard@r': '^2.0.0', 'new@r': '^1.0.0' }, registries: {} },
        lock,
      ).map((m) => `${m.id}:${m.kind}`),
    ).toEqual(['guard@r:range', 'new@r:missing']);
    expect(findLockMismatches({ plugins: {}, registries: {} }, lock).map((m) => m.kind)).toEqual([
      'extra',
    ]);
  });
});

describe("hookpm.lock: a marketplace entry's own repository (registry.md J13)", () => {
  const commit = 'c'.repeat(40);
  it('J13: a file: repository URL (with a subdirectory) is read only together with its commit', () => {
    for (const resolved of ['file:///srv/guard.git', 'file:///srv/mono.git#plugins/guard']) {
      const text = JSON.stringify({
        lockfileVersion: 1,
        plugins: { 'g@r': { ...entry, resolved, commit } },
      });
      expect(parseLockfile(text, 'hookpm.lock').plugins['g@r']!.resolved).toBe(resolved);
    }
    for (const resolved of [
      'file:///srv/x.git#../up',
      'file:///srv/%2e%2e/x.git',
      'file://host/x.git',
    ]) {
      const text = JSON.stringify({
        lockfileVersion: 1,
        plugins: { 'g@r': { ...entry, resolved, commit } },
      });
      expect(code(() => parseLockfile(text, 'hookpm.lock'))).toBe('E_PROJECT_FILE');
    }
  });
});

/** The HookpmError `fn` throws. */
function thrown(fn: () => unknown): HookpmError {
  try {
    fn();
  } catch (error) {
    if (isHookpmError(error)) return error;
    throw error;
  }
  throw new Error('expected a HookpmError');
}

describe('E_PROJECT_FILE (errors.md): a value of any size from the file is quoted cut short (describeValue)', () => {
  const huge = '1.' + '0'.repeat(5_000_000);
  /** How describeValue shows `huge`: its first 60 characters, quoted, the cut marked. */
  const CUT = `"1.${'0'.repeat(58)}..."`;
  const json = (doc: unknown) => JSON.stringify(doc);
  const lockWith = (plugins: unknown, version: unknown = 1) =>
    json({ lockfileVersion: version, plugins });

  it.each([
    [
      'hookpm.json',
      'a 5 MB range',
      json({ plugins: { 'guard@x': huge } }),
      `plugins.guard@x: ${CUT}`,
    ],
    [
      'hookpm.json',
      'a range that is a large object',
      json({ plugins: { 'guard@x': { a: huge } } }),
      'plugins.guard@x: an object is not',
    ],
    [
      'hookpm.json',
      'a 5 MB key that is no plugin id',
      json({ plugins: { [huge]: '^1' } }),
      `plugins: ${CUT}`,
    ],
    [
      'hookpm.json',
      'a 5 MB unknown key',
      json({ plugins: {}, [huge]: 1 }),
      `the document has the unknown key ${CUT}`,
    ],
    [
      'hookpm.json',
      'a 5 MB registry name',
      json({ registries: { [huge]: 'x' } }),
      `registries: ${CUT}`,
    ],
    [
      'hookpm.json',
      'a 5 MB duplicate key',
      `{"plugins": {"${huge}": "^1", "${huge}": "^1"}}`,
      `duplicate key ${CUT}`,
    ],
    ['hookpm.lock', 'a 5 MB lockfileVersion', lockWith({}, huge), `lockfileVersion is ${CUT}`],
    [
      'hookpm.lock',
      'a 5 MB key that is no plugin id',
      lockWith({ [huge]: entry }),
      `plugins: ${CUT}`,
    ],
    [
      'hookpm.lock',
      'a 5 MB unknown key in an entry',
      lockWith({ 'g@r': { ...entry, [huge]: 1 } }),
      `plugins.g@r has the unknown key ${CUT}`,
    ],
  ])(
    '%s with %s: E_PROJECT_FILE names where, quotes at most 60 characters and marks the cut',
    (file, _what, text, shape) => {
      const parse = file === 'hookpm.json' ? parseProjectManifest : parseLockfile;
      const error = thrown(() => parse(text, file));
      expect(error.code).toBe('E_PROJECT_FILE');
      expect(error.message).toContain(`${file}: `);
      expect(error.message).toContain(shape);
      expect(error.message.length).toBeLessThan(200);
      // The value never appears beyond the cut.
      expect(error.message).not.toContain('0'.repeat(59));
    },
  );

  // registry.md N5: a location or tarball URL too long to read is quoted without its user part,
  // whatever the password holds (a space, a "/"), before it is cut and before redact() sees it.
  it.each([
    ['hookpm.json', 'https://u:pa ss@r.example/'],
    ['hookpm.json', 'https://u:pa/ss@r.example/'],
    ['hookpm.lock', 'https://u:pa ss@r.example/'],
    ['hookpm.lock', 'https://u:pa/ss@r.example/'],
  ])('N5: %s quotes a too long %j as https://***@r.example/', (file, start) => {
    const url = `${start}${'a'.repeat(3000)}`;
    const text =
      file === 'hookpm.json'
        ? json({ registries: { team: url } })
        : lockWith({ 'g@team': { ...entry, resolved: url } });
    const parse = file === 'hookpm.json' ? parseProjectManifest : parseLockfile;
    const error = thrown(() => parse(text, file));
    expect(error.code).toBe('E_PROJECT_FILE');
    expect(redact(error.message)).toContain('"https://***@r.example/aaa');
    expect(redact(error.message)).not.toMatch(/pa.ss/);
  });

  // A cloned hookpm.json's range is parsed by every project command, several times each: one of
  // 13 MB kept `ci` busy for a minute and 1.7 GB. A range a project may hold is bounded.
  it(`a valid range longer than ${MAX_RANGE_LENGTH} characters is refused, a shorter one read`, () => {
    /** `^1.0.0 || ... || ^1.0.0`, valid, of the most characters up to `length`. */
    const range = (length: number) => `${'^1.0.0 || '.repeat(Math.floor((length - 6) / 10))}^1.0.0`;
    const parse = (wanted: string) =>
      parseProjectManifest(json({ plugins: { 'guard@x': wanted } }), 'hookpm.json');
    const error = thrown(() => parse(range(MAX_RANGE_LENGTH + 10)));
    expect(error.code).toBe('E_PROJECT_FILE');
    expect(error.message).toContain('plugins.guard@x: "^1.0.0 || ^1.0.0');
    expect(error.message).toContain(`of at most ${MAX_RANGE_LENGTH} characters`);
    expect(error.message.length).toBeLessThan(300);
    expect(parse(range(MAX_RANGE_LENGTH)).plugins['guard@x']).toBe(range(MAX_RANGE_LENGTH));
  });

  it('a short value is still quoted whole', () => {
    const error = thrown(() =>
      parseProjectManifest(json({ plugins: { 'guard@x': '>>1' } }), 'hookpm.json'),
    );
    expect(error.message).toBe(
      'hookpm.json: plugins.guard@x: ">>1" is not a version range or dist-tag',
    );
  });
});

describe('E_LOCK_MISMATCH (errors.md): each difference is named, up to a bound, the rest counted', () => {
  const many = (n: number): Lockfile => ({
    lockfileVersion: 1,
    plugins: Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}@r`, entry])),
  });

  it(`a lock with 40,000 plugins hookpm.json does not name: the first ${MISMATCHES_SHOWN} are described, the rest counted`, () => {
    const mismatches = findLockMismatches({ plugins: {}, registries: {} }, many(40_000));
    expect(mismatches).toHaveLength(40_000);
    const text = describeMismatches(mismatches);
    const parts = text.split('; ');
    expect(parts).toHaveLength(MISMATCHES_SHOWN + 1);
    expect(parts[0]).toBe('p0@r "1.1.0" is in hookpm.lock but not in hookpm.json');
    expect(parts.at(-1)).toBe(`and ${40_000 - MISMATCHES_SHOWN} more`);
    expect(text.length).toBeLessThan(1000);
  });

  it('as many as are shown are all described, with no count', () => {
    const text = describeMismatches(
      findLockMismatches({ plugins: {}, registries: {} }, many(MISMATCHES_SHOWN)),
    );
    expect(text.split('; ')).toHaveLength(MISMATCHES_SHOWN);
    expect(text).not.toContain('more');
  });

  it('a range and a locked version of any size are quoted cut short', () => {
    const long = '>=1.0.0 '.repeat(1000).trim();
    const lock: Lockfile = {
      lockfileVersion: 1,
      plugins: { 'g@r': { ...entry, version: `2.0.0-${'x'.repeat(100_000)}` } },
    };
    const text = describeMismatches(
      findLockMismatches({ plugins: { 'g@r': long }, registries: {} }, lock),
    );
    expect(text).toMatch(
      /^g@r: hookpm\.lock has "2\.0\.0-x+\.\.\.", outside ">=1\.0\.0 [^"]*\.\.\." that hookpm\.json asks for$/,
    );
    expect(text.length).toBeLessThan(250);
  });
});
