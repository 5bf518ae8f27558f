import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isHookpmError } from '../../src/errors.js';
import type { ErrorCode } from '../../src/errors.js';
import { parseIndex } from '../../src/registry/indexes/index-schema.js';
import { parsePluginDocument } from '../../src/registry/sparse/sparse-plugin.js';

const sha512 = (text: string): string =>
  `sha512-${createHash('sha512').update(text).digest('base64')}`;

function validIndex(): Record<string, any> {
  return {
    formatVersion: 1,
    name: 'acme',
    description: "Acme's hook plugins",
    plugins: {
      guard: {
        description: 'Blocks destructive shell commands',
        keywords: ['safety'],
        distTags: { latest: '1.2.0' },
        versions: {
          '1.2.0': {
            tarball: 'tarballs/guard-1.2.0.tgz',
            integrity: sha512('guard-1.2.0'),
            size: 2048,
            publishedAt: '2026-11-01T00:00:00Z',
            events: ['PreToolUse', 'SessionStart'],
            surfaceHash: `sha256-${createHash('sha256').update('s').digest('base64')}`,
            deprecated: 'optional reason',
          },
        },
      },
    },
  };
}

function failure(value: unknown): { code: ErrorCode; message: string } {
  try {
    parseIndex(value, 'https://reg.example/index.json');
  } catch (error) {
    if (isHookpmError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected parseIndex to throw');
}

describe('parseIndex', () => {
  it('section 2: the documented example index parses, with defaults for keywords and distTags', () => {
    const index = validIndex();
    index['plugins'].other = {
      versions: { '0.1.0': { tarball: 'https://cdn.example/o.tgz', integrity: sha512('o') } },
    };
    const parsed = parseIndex(index, 'index.json');
    expect(parsed.plugins['guard']?.versions['1.2.0']?.size).toBe(2048);
    expect(parsed.plugins['other']?.keywords).toEqual([]);
    expect(parsed.plugins['other']?.distTags).toEqual({});
  });

  it('I1: unknown fields are ignored, at every level', () => {
    const index = validIndex();
    index['extra'] = { anything: true };
    index['plugins'].guard.homepage = 'https://x';
    index['plugins'].guard.versions['1.2.0'].signature = 'abc';
    const parsed = parseIndex(index, 'index.json');
    expect(parsed).not.toHaveProperty('extra');
    expect(parsed.plugins['guard']?.versions['1.2.0']).not.toHaveProperty('signature');
  });

  const schemaRows: Array<[string, (index: Record<string, any>) => unknown, ErrorCode, RegExp]> = [
    [
      'security.md: `versions` is an array',
      (i) => (i['plugins'].guard.versions = []),
      'E_REGISTRY_SCHEMA',
      /plugins\.guard\.versions is an array, expected an object/,
    ],
    [
      'security.md: `integrity` is a number',
      (i) => (i['plugins'].guard.versions['1.2.0'].integrity = 5),
      'E_REGISTRY_SCHEMA',
      /plugins\.guard\.versions\.1\.2\.0\.integrity is a number \(5\), expected a string/,
    ],
    [
      'security.md: tarball URL `javascript:`',
      (i) => (i['plugins'].guard.versions['1.2.0'].tarball = 'javascript:alert(1)'),
      'E_REGISTRY_SCHEMA',
      /plugins\.guard\.versions\.1\.2\.0\.tarball: .*unsupported scheme "javascript:"/,
    ],
    [
      'security.md: a `data:` tarball URL is refused like `javascript:`',
      (i) => (i['plugins'].guard.versions['1.2.0'].tarball = 'data:application/gzip;base64,AAAA'),
      'E_REGISTRY_SCHEMA',
      /tarball: .*unsupported scheme "data:"/,
    ],
    [
      'section 2: an absolute path tarball is neither relative nor a URL',
      (i) => (i['plugins'].guard.versions['1.2.0'].tarball = '/etc/passwd'),
      'E_REGISTRY_SCHEMA',
      /tarball "\/etc\/passwd" is neither a relative path nor an allowed URL/,
    ],
    [
      'section 2: a protocol-relative tarball is refused',
      (i) => (i['plugins'].guard.versions['1.2.0'].tarball = '//evil.example/x.tgz'),
      'E_REGISTRY_SCHEMA',
      /tarball/,
    ],
    [
      'security.md: an http tarball URL off loopback is E_INSECURE_URL',
      (i) => (i['plugins'].guard.versions['1.2.0'].tarball = 'http://cdn.example/g.tgz'),
      'E_INSECURE_URL',
      /plugins\.guard\.versions\.1\.2\.0\.tarball: .*plain http: http:\/\/cdn\.example\/g\.tgz/,
    ],
    [
      'security.md: `integrity` is sha1 only (sha512 required)',
      (i) => (i['plugins'].guard.versions['1.2.0'].integrity = 'sha1-2jmj7l5rSw0yVb/vlWAYkK/YBwk='),
      'E_INTEGRITY',
      /plugins\.guard\.versions\.1\.2\.0\.integrity has no sha512 entry .*sha512 required/,
    ],
    [
      'I1: a version key that is not canonical semver (v1.2.0)',
      (i) => (i['plugins'].guard.versions = { 'v1.2.0': i['plugins'].guard.versions['1.2.0'] }),
      'E_REGISTRY_SCHEMA',
      /plugins\.guard\.versions\.v1\.2\.0 is not a canonical semver version/,
    ],
    [
      'I1: a version key with build metadata is not canonical',
      (i) => (i['plugins'].guard.versions = { '1.2.0+b1': i['plugins'].guard.versions['1.2.0'] }),
      'E_REGISTRY_SCHEMA',
      /1\.2\.0\+b1 is not a canonical semver version/,
    ],
    [
      'I1: two version keys equal under semver are a schema error',
      (i) => (i['plugins'].guard.versions['=1.2.0'] = i['plugins'].guard.versions['1.2.0']),
      'E_REGISTRY_SCHEMA',
      /plugins\.guard\.versions has keys 1\.2\.0 and =1\.2\.0, which are equal under semver/,
    ],
    [
      'P3: a plugin key that is not a valid plugin name',
      (i) => (i['plugins']['../x'] = i['plugins'].guard),
      'E_REGISTRY_SCHEMA',
      /plugins\.\.\.\/x is not a valid plugin name/,
    ],
    [
      'P3: an upper-case plugin key is refused',
      (i) => (i['plugins']['Guard'] = i['plugins'].guard),
      'E_REGISTRY_SCHEMA',
      /plugins\.Guard is not a valid plugin name/,
    ],
    [
      'section 2: a formatVersion other than 1',
      (i) => (i['formatVersion'] = 2),
      'E_REGISTRY_SCHEMA',
      /formatVersion is 2, expected 1/,
    ],
    [
      'section 2: a missing integrity',
      (i) => delete i['plugins'].guard.versions['1.2.0'].integrity,
      'E_REGISTRY_SCHEMA',
      /integrity is missing, expected a string/,
    ],
    [
      'section 2: a dist-tag naming a version that is not in versions',
      (i) => (i['plugins'].guard.distTags.latest = '9.9.9'),
      'E_REGISTRY_SCHEMA',
      /plugins\.guard\.distTags\.latest names 9\.9\.9/,
    ],
    [
      'section 2: a dist-tag name that is itself a range',
      (i) => (i['plugins'].guard.distTags['1.x'] = '1.2.0'),
      'E_REGISTRY_SCHEMA',
      /plugins\.guard\.distTags\.1\.x is not a dist-tag name/,
    ],
    [
      'section 2: size must be a non-negative integer',
      (i) => (i['plugins'].guard.versions['1.2.0'].size = '2048'),
      'E_REGISTRY_SCHEMA',
      /size is a string \("2048"\), expected a number/,
    ],
    [
      'section 2: events must be an array of strings',
      (i) => (i['plugins'].guard.versions['1.2.0'].events = ['PreToolUse', 3]),
      'E_REGISTRY_SCHEMA',
      /events\[1\] is a number \(3\), expected a string/,
    ],
  ];

  for (const [name, mutate, code, message] of schemaRows) {
    it(`${name} -> ${code} naming the field path`, () => {
      const index = validIndex();
      mutate(index);
      const error = failure(index);
      expect(error.code).toBe(code);
      expect(error.message).toMatch(message);
      expect(error.message).toContain('https://reg.example/index.json');
    });
  }

  it('section 2: a 200 KB dist-tag value, tag key, plugin key or version key is quoted as a bounded prefix', () => {
    const long = 'x'.repeat(200_000);
    const mutations: Array<(i: Record<string, any>) => void> = [
      (i) => (i['plugins'].guard.distTags.latest = long),
      (i) => (i['plugins'].guard.distTags[`a${long}`] = '1.2.0'),
      (i) => (i['plugins'][`g${long}`] = i['plugins'].guard),
      (i) => (i['plugins'].guard.versions[`1.2.0-${long}!`] = {}),
    ];
    for (const mutate of mutations) {
      const index = validIndex();
      mutate(index);
      const error = failure(index);
      expect(error.code).toBe('E_REGISTRY_SCHEMA');
      expect(error.message).toContain('xxx...');
      expect(error.message.length).toBeLessThan(1000);
    }
  });

  it('P3: a `__proto__` plugin key is refused, never merged into the prototype', () => {
    const text = `{"formatVersion":1,"plugins":{"__proto__":{"versions":{}}}}`;
    const error = failure(JSON.parse(text));
    expect(error.code).toBe('E_REGISTRY_SCHEMA');
    expect(error.message).toMatch(/plugins\.__proto__ is not a valid plugin name/);
  });

  // JSON.parse makes `__proto__` an own key, which zod drops: each is checked like its siblings.
  const entry = JSON.stringify(validIndex()['plugins'].guard.versions['1.2.0']);
  const protoRows: Array<[string, string, RegExp]> = [
    [
      'I1: a `__proto__` version key is not canonical semver',
      `"distTags":{"latest":"1.2.0"},"versions":{"__proto__":${entry},"1.2.0":${entry}}`,
      /plugins\.guard\.versions\.__proto__ is not a canonical semver version/,
    ],
    [
      'I1: a `__proto__` version key is refused whatever its value',
      `"distTags":{"latest":"1.2.0"},"versions":{"1.2.0":${entry},"__proto__":{"tarball":5}}`,
      /plugins\.guard\.versions\.__proto__ is not a canonical semver version/,
    ],
    [
      'I1: a `__proto__` dist-tag key is not a dist-tag name',
      `"distTags":{"__proto__":"9.9.9","latest":"1.2.0"},"versions":{"1.2.0":${entry}}`,
      /plugins\.guard\.distTags\.__proto__ is not a dist-tag name/,
    ],
  ];
  for (const [name, plugin, message] of protoRows) {
    it(`${name} -> E_REGISTRY_SCHEMA naming the field path`, () => {
      const value: unknown = JSON.parse(`{"formatVersion":1,"plugins":{"guard":{${plugin}}}}`);
      const error = failure(value);
      expect(error.code).toBe('E_REGISTRY_SCHEMA');
      expect(error.message).toMatch(message);
    });
  }

  it('N7, I1: a sparse plugin document with a `__proto__` version or dist-tag key is refused', () => {
    for (const plugin of [
      `"distTags":{"latest":"1.2.0"},"versions":{"__proto__":${entry},"1.2.0":${entry}}`,
      `"distTags":{"__proto__":"1.2.0","latest":"1.2.0"},"versions":{"1.2.0":${entry}}`,
    ]) {
      const doc: unknown = JSON.parse(`{"name":"guard",${plugin}}`);
      let code: string | undefined;
      try {
        parsePluginDocument(doc, 'guard', 'https://reg.example/plugins/gu/guard.json');
      } catch (error) {
        code = isHookpmError(error) ? error.code : 'not a HookpmError';
      }
      expect(code).toBe('E_REGISTRY_SCHEMA');
    }
  });

  it('section 2: a file: tarball URL naming a remote host is refused', () => {
    const index = validIndex();
    index['plugins'].guard.versions['1.2.0'].tarball = 'file://evil.example/share/g.tgz';
    expect(failure(index)).toMatchObject({
      code: 'E_REGISTRY_SCHEMA',
      message: expect.stringMatching(/tarball: /),
    });
  });

  it('section 2: a relative tarball path with a backslash or control character is refused', () => {
    for (const tarball of ['tarballs\\g.tgz', 'tarballs/g\n.tgz']) {
      const index = validIndex();
      index['plugins'].guard.versions['1.2.0'].tarball = tarball;
      expect(failure(index).code).toBe('E_REGISTRY_SCHEMA');
    }
  });

  it('security.md: an index that is HTML (a string) or null is E_REGISTRY_SCHEMA', () => {
    expect(failure('<html>').code).toBe('E_REGISTRY_SCHEMA');
    expect(failure(null).code).toBe('E_REGISTRY_SCHEMA');
    expect(failure([]).message).toMatch(/is an array, expected an object/);
  });

  it('section 2: https, loopback http and file tarball URLs and relative paths are accepted', () => {
    for (const tarball of [
      'https://cdn.example/g.tgz',
      'http://127.0.0.1:8080/g.tgz',
      'http://localhost/g.tgz',
      'http://[::1]:9/g.tgz',
      'file:///srv/reg/g.tgz',
      'tarballs/g.tgz',
      './tarballs/g.tgz',
    ]) {
      const index = validIndex();
      index['plugins'].guard.versions['1.2.0'].tarball = tarball;
      expect(parseIndex(index, 'i').plugins['guard']?.versions['1.2.0']?.tarball).toBe(tarball);
    }
  });

  it('I1: an integrity with sha1 and sha512 entries is accepted (it contains a sha512 entry)', () => {
    const index = validIndex();
    index['plugins'].guard.versions['1.2.0'].integrity =
      `sha1-2jmj7l5rSw0yVb/vlWAYkK/YBwk= ${sha512('g')}`;
    expect(() => parseIndex(index, 'i')).not.toThrow();
  });

  it('I1: a "sha512-" prefix with a digest of the wrong length is not a sha512 entry', () => {
    const index = validIndex();
    index['plugins'].guard.versions['1.2.0'].integrity = 'sha512-abc';
    expect(failure(index).code).toBe('E_INTEGRITY');
  });
});
