import { describe, expect, it } from 'vitest';
import { isHookpmError, redact } from '../../src/errors.js';
import type { ErrorCode } from '../../src/errors.js';
import { parseInstallSpec } from '../../src/registry/versions/parse-spec.js';
import type { InstallSpec } from '../../src/registry/versions/parse-spec.js';

/** Omit distributed over the union, so each row is checked against its own kind. */
type WithoutRaw<T> = T extends unknown ? Omit<T, 'raw'> : never;

const REGISTRIES = ['examples', 'acme', 'beta', '1'];

function fails(spec: string): ErrorCode {
  try {
    parseInstallSpec(spec, REGISTRIES);
  } catch (error) {
    if (isHookpmError(error)) return error.code;
    throw error;
  }
  throw new Error(`expected ${spec} to be refused`);
}

describe('parseInstallSpec', () => {
  const rows: Array<[string, string, WithoutRaw<InstallSpec>]> = [
    ['V1: a bare name', 'guard', { kind: 'registry', name: 'guard' }],
    ['V1: name@range', 'guard@^1.2.0', { kind: 'registry', name: 'guard', range: '^1.2.0' }],
    ['V1: name@exact version', 'guard@1.0.0', { kind: 'registry', name: 'guard', range: '1.0.0' }],
    ['V1: name@x-range', 'guard@1.x', { kind: 'registry', name: 'guard', range: '1.x' }],
    ['V1: name@tag', 'guard@next', { kind: 'registry', name: 'guard', tag: 'next' }],
    ['V1: name@registry', 'guard@acme', { kind: 'registry', name: 'guard', registry: 'acme' }],
    [
      'V1: a known registry name wins over a tag of the same spelling',
      'guard@beta',
      { kind: 'registry', name: 'guard', registry: 'beta' },
    ],
    [
      'V1: a known registry name wins over a range of the same spelling',
      'guard@1',
      { kind: 'registry', name: 'guard', registry: '1' },
    ],
    [
      'V1: name@registry@range',
      'guard@acme@~1.2',
      { kind: 'registry', name: 'guard', registry: 'acme', range: '~1.2' },
    ],
    [
      'V1: name@registry@tag',
      'guard@acme@latest',
      { kind: 'registry', name: 'guard', registry: 'acme', tag: 'latest' },
    ],
    [
      'V1: name@registry@range with a registry that is not configured (the caller reports it)',
      'guard@other@1',
      { kind: 'registry', name: 'guard', registry: 'other', range: '1' },
    ],
    ['cli.md: ./dir', './plugins/guard', { kind: 'directory', path: './plugins/guard' }],
    ['cli.md: ../dir', '../guard', { kind: 'directory', path: '../guard' }],
    ['cli.md: /abs/dir', '/srv/plugins/guard', { kind: 'directory', path: '/srv/plugins/guard' }],
    ['cli.md: the current directory', '.', { kind: 'directory', path: '.' }],
    [
      'cli.md: ./file.tgz',
      './guard-1.0.0.tgz',
      { kind: 'tarball-file', path: './guard-1.0.0.tgz' },
    ],
    [
      'cli.md: /abs/file.tar.gz',
      '/tmp/guard.tar.gz',
      { kind: 'tarball-file', path: '/tmp/guard.tar.gz' },
    ],
    [
      'cli.md: a file: URL of a tarball',
      'file:///tmp/g%20x.tgz',
      { kind: 'tarball-file', path: '/tmp/g x.tgz' },
    ],
    [
      'cli.md: https://.../x.tgz',
      'https://cdn.example/guard-1.0.0.tgz',
      { kind: 'tarball-url', url: 'https://cdn.example/guard-1.0.0.tgz' },
    ],
    [
      'registry.md section 1: http on loopback is allowed (development)',
      'http://127.0.0.1:4873/g.tgz',
      { kind: 'tarball-url', url: 'http://127.0.0.1:4873/g.tgz' },
    ],
    ['cli.md: npm:pkg', 'npm:hook-guard', { kind: 'npm', package: 'hook-guard' }],
    [
      'cli.md: npm:pkg@range',
      'npm:hook-guard@^2',
      { kind: 'npm', package: 'hook-guard', range: '^2' },
    ],
    [
      'cli.md: npm:pkg@tag',
      'npm:hook-guard@next',
      { kind: 'npm', package: 'hook-guard', tag: 'next' },
    ],
    ['cli.md: npm:@scope/pkg', 'npm:@acme/guard', { kind: 'npm', package: '@acme/guard' }],
    [
      'cli.md: npm:@scope/pkg@range',
      'npm:@acme/guard@^1',
      { kind: 'npm', package: '@acme/guard', range: '^1' },
    ],
  ];

  for (const [name, spec, expected] of rows) {
    it(`${name}: ${spec}`, () => {
      expect(parseInstallSpec(spec, REGISTRIES)).toEqual({ ...expected, raw: spec });
    });
  }

  const refused: Array<[string, string, ErrorCode]> = [
    ['P3: an upper-case name', 'Guard', 'E_NAME_INVALID'],
    ['P3: a name with a slash', 'a/b', 'E_NAME_INVALID'],
    ['P3: a shell substitution as name', '$(id)', 'E_NAME_INVALID'],
    ['P3: a Cyrillic look-alike name', 'g\u0443ard', 'E_NAME_INVALID'],
    ['cli.md: an empty spec', '', 'E_USAGE'],
    ['cli.md: a trailing @', 'guard@', 'E_USAGE'],
    ['cli.md: a trailing @ after the registry', 'guard@acme@', 'E_USAGE'],
    ['cli.md: more than two @', 'guard@acme@1@2', 'E_USAGE'],
    ['cli.md: neither range, tag nor registry', 'guard@!!', 'E_USAGE'],
    ['cli.md: an invalid registry name in name@registry@range', 'guard@Acme@1', 'E_USAGE'],
    ['cli.md: a control character', 'guard\n', 'E_USAGE'],
    ['cli.md: an unsupported URL scheme', 'ftp://x/g.tgz', 'E_USAGE'],
    ['security.md: a plain http URL off loopback', 'http://cdn.example/g.tgz', 'E_INSECURE_URL'],
    ['cli.md: an invalid npm package name', 'npm:Bad Name', 'E_NAME_INVALID'],
    ['cli.md: npm: with a trailing @', 'npm:@acme/guard@', 'E_USAGE'],
  ];

  for (const [name, spec, code] of refused) {
    it(`${name} is ${code}: ${JSON.stringify(spec)}`, () => {
      expect(fails(spec)).toBe(code);
    });
  }

  it('V1: without configured registries, name@x is read as a tag', () => {
    expect(parseInstallSpec('guard@acme', [])).toEqual({
      kind: 'registry',
      raw: 'guard@acme',
      name: 'guard',
      tag: 'acme',
    });
  });
});

describe('parseInstallSpec with a registry URL after the name', () => {
  it('N5: refuses it naming `registry add`, and the password is not in the message redact leaves', () => {
    for (const spec of ['guard@https://u:s3cret@host', 'guard@https://u:s3cret@host@^1']) {
      let message = '';
      try {
        parseInstallSpec(spec, REGISTRIES);
      } catch (error) {
        if (!isHookpmError(error)) throw error;
        expect(error.code).toBe('E_USAGE');
        message = redact(error.message);
      }
      expect(message).toContain('hookpm registry add <name> <url>');
      expect(message).not.toContain('s3cret');
    }
  });

  // N5, as registry add names a location: a URL typed without its `://` shows no user:password@.
  it.each([
    [
      'u:s3cret@host/x.tgz',
      'install spec "***@host/x.tgz" uses a source hookpm does not install from',
    ],
    [
      'https//u:s3cret@host/x.tgz',
      'install spec "https//***@host/x.tgz": its name is not a valid plugin name',
    ],
  ])('N5: %j is refused without its password', (spec, words) => {
    let message = '';
    try {
      parseInstallSpec(spec, REGISTRIES);
    } catch (error) {
      if (!isHookpmError(error)) throw error;
      message = redact(error.message);
    }
    expect(message).toContain(words);
    expect(message).not.toContain('s3cret');
  });

  it('N5: an npm spec or a plugin name is quoted whole', () => {
    expect(() => parseInstallSpec('npm:@scope/pkg@not a range!', REGISTRIES)).toThrow(
      '"npm:@scope/pkg@not a range!"',
    );
    expect(() => parseInstallSpec('Guard@1', REGISTRIES)).toThrow('"Guard@1": "Guard"');
  });
});

describe('parseInstallSpec with a scoped npm package where a plugin name goes', () => {
  // cli.md `hookpm install` forms: a scoped package is `npm:@scope/name[@range]`; typed as npm
  // takes it (`@acme/guard@^1`), the error names that form rather than an empty plugin name.
  it.each([
    ['@acme/guard', 'npm:@acme/guard'],
    ['@acme/guard@^1.2.0', 'npm:@acme/guard@^1.2.0'],
    ['@acme/guard@next', 'npm:@acme/guard@next'],
    ['@acme/guard@npm', 'npm:@acme/guard'],
    ['@acme/guard@acme@1.0.0', 'npm:@acme/guard@1.0.0'],
  ])('E_NAME_INVALID for %s names %s', (spec, form) => {
    let error: unknown;
    try {
      parseInstallSpec(spec, [...REGISTRIES, 'npm']);
    } catch (caught) {
      error = caught;
    }
    if (!isHookpmError(error)) throw new Error(`expected ${spec} to be refused`);
    expect(error.code).toBe('E_NAME_INVALID');
    expect(error.message).toContain('is a scoped npm package');
    expect(error.message).not.toContain('""');
    expect(error.hint).toContain(`hookpm install ${form}`);
  });
});
