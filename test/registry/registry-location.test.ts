import { describe, expect, it } from 'vitest';
import { HookpmError } from '../../src/errors.js';
import {
  classifyLocation,
  indexUrlOf,
  showLocation,
  showTypedLocation,
  tarballUrlOf,
} from '../../src/registry/registry-location.js';
import { checkRegistryName } from '../../src/registry/registry-name.js';

describe('registry locations (registry.md section 1)', () => {
  it.each([
    ['https://plugins.acme.dev', { kind: 'index', location: 'https://plugins.acme.dev/' }],
    [
      'https://plugins.acme.dev/r/index.json',
      { kind: 'index', location: 'https://plugins.acme.dev/r/' },
    ],
    [
      'https://plugins.acme.dev/r/#frag',
      { kind: 'index', location: 'https://plugins.acme.dev/r/' },
    ],
    ['http://127.0.0.1:8080/reg', { kind: 'index', location: 'http://127.0.0.1:8080/reg/' }],
    ['http://localhost/', { kind: 'index', location: 'http://localhost/' }],
    ['http://[::1]:9/', { kind: 'index', location: 'http://[::1]:9/' }],
    ['file:///srv/reg', { kind: 'local', path: '/srv/reg', fileUrl: true }],
    ['/srv/reg', { kind: 'local', path: '/srv/reg', fileUrl: false }],
    ['reg/sub', { kind: 'local', path: '/work/reg/sub', fileUrl: false }],
    ['../reg', { kind: 'local', path: '/reg', fileUrl: false }],
    ['npm', { kind: 'npm', location: 'npm' }],
    [
      'git@github.com:acme/plugins.git',
      { kind: 'marketplace', location: 'git@github.com:acme/plugins.git' },
    ],
    [
      'https://github.com/acme/plugins.git',
      { kind: 'marketplace', location: 'https://github.com/acme/plugins.git' },
    ],
    // 1: a repository's page on GitHub, GitLab or Bitbucket, as Claude Code takes one: its git URL.
    [
      'https://github.com/acme/plugins',
      { kind: 'marketplace', location: 'https://github.com/acme/plugins.git' },
    ],
    [
      'https://github.com/acme/plugins/',
      { kind: 'marketplace', location: 'https://github.com/acme/plugins.git' },
    ],
    [
      'https://gitlab.com/acme/team/plugins',
      { kind: 'marketplace', location: 'https://gitlab.com/acme/team/plugins.git' },
    ],
    [
      'https://bitbucket.org/acme/plugins',
      { kind: 'marketplace', location: 'https://bitbucket.org/acme/plugins.git' },
    ],
    [
      'https://acme.dev/.claude-plugin/marketplace.json',
      { kind: 'marketplace', location: 'https://acme.dev/.claude-plugin/marketplace.json' },
    ],
  ])('1: %s is detected as %o', (location, expected) => {
    expect(classifyLocation(location, '/work')).toEqual(expected);
  });

  it.each([
    ['http://example.com/reg', 'E_INSECURE_URL'],
    ['http://10.0.0.1/reg', 'E_INSECURE_URL'],
    ['ftp://example.com/reg', 'E_USAGE'],
    ['javascript:alert(1)', 'E_USAGE'],
    ['file://remote-host/reg', 'E_USAGE'],
    // security.md: a file: URL whose path holds an encoded "/" names no path (never E_INTERNAL).
    ['file:///srv/a%2Freg', 'E_USAGE'],
    ['file:///srv/a%2freg', 'E_USAGE'],
    ['', 'E_USAGE'],
    ['reg\nname', 'E_USAGE'],
    // N5: a query is never sent with an index's requests, so a token there is refused, not kept.
    ['https://acme.dev/r/?access_token=abc', 'E_USAGE'],
    ['https://acme.dev/r/registry.json?v=2', 'E_USAGE'],
    // 1: a git marketplace is read at its default branch: a `#<ref>` is refused, never dropped.
    ['https://github.com/acme/plugins.git#v2', 'E_USAGE'],
    ['https://github.com/acme/plugins.git/#feature', 'E_USAGE'],
    ['git@github.com:acme/plugins.git#v2', 'E_USAGE'],
    ['ssh://git@github.com/acme/plugins.git#v2', 'E_USAGE'],
    ['file:///srv/plugins.git#v2', 'E_USAGE'],
    // A repository's page is that git marketplace: its `#<ref>` is refused the same way.
    ['https://github.com/acme/plugins#v2', 'E_USAGE'],
    ['https://gitlab.com/acme/team/plugins#feature', 'E_USAGE'],
  ])('1: %j is refused with %s', (location, code) => {
    const caught = refusalOf(location);
    expect(caught).toBeInstanceOf(HookpmError);
    expect((caught as HookpmError).code).toBe(code);
  });

  it('the index of a stored location is index.json at its base', () => {
    expect(indexUrlOf('https://acme.dev/r/')).toBe('https://acme.dev/r/index.json');
    expect(indexUrlOf('file:///srv/reg/')).toBe('file:///srv/reg/index.json');
    expect(indexUrlOf('/srv/my reg')).toBe('file:///srv/my%20reg/index.json');
  });

  it('1: tarball URLs resolve relative to the index', () => {
    expect(tarballUrlOf('https://acme.dev/r/index.json', 'tarballs/g-1.0.0.tgz')).toBe(
      'https://acme.dev/r/tarballs/g-1.0.0.tgz',
    );
    expect(tarballUrlOf('file:///srv/reg/index.json', 'https://cdn.acme.dev/g.tgz')).toBe(
      'https://cdn.acme.dev/g.tgz',
    );
  });

  // cli.md Conventions: one sentence naming what was given (N5: redacted) and why; the fix is
  // the hint.
  it.each([
    ['https://', 'is not a valid URL'],
    ['https://exa mple.com/', 'is not a valid URL'],
    ['ftp://example.com/reg', 'uses the unsupported scheme "ftp:"'],
    ['file://remote-host/reg', 'names a remote file host'],
    ['https://u:pa ss@ho st/', 'is not a valid URL', 'https://***@ho st/'],
    ['u:s3cret@host/reg', 'uses the unsupported scheme "u:"', '***@host/reg'],
    // A scheme word right before `@` holds no password: an npm spec is quoted whole.
    ['npm:@scope/pkg', 'uses the unsupported scheme "npm:"'],
  ])(
    'cli.md: %j is refused in one sentence: the registry location "…" %s',
    (location, reason, shown = location) => {
      const caught = refusalOf(location);
      expect(caught).toBeInstanceOf(HookpmError);
      const error = caught as HookpmError;
      expect(error.code).toBe('E_USAGE');
      expect(error.message).toBe(`the registry location ${JSON.stringify(shown)} ${reason}`);
      expect(error.hint).toMatch(/^Give an https:\/\/ URL/);
    },
  );

  it('N5: a location is shown with its credentials redacted', () => {
    expect(showLocation('https://user:secret@acme.dev/r/?token=abc')).toBe(
      'https://***@acme.dev/r/?token=***',
    );
    expect(showLocation('/srv/reg')).toBe('/srv/reg');
    // A token typed as a user with an empty password stays hidden; a scheme word does not.
    expect(showTypedLocation('ghp_0123456789abcdefghij:@github.com/r')).toBe('***@github.com/r');
    expect(showTypedLocation('x/glpat-0123456789ab:@gitlab.com')).toBe('x/***@gitlab.com');
    expect(showTypedLocation('npm:@scope/pkg')).toBe('npm:@scope/pkg');
    expect(showTypedLocation('npm:@scope/pkg@1.2.3')).toBe('npm:@scope/pkg@1.2.3');
    // A second colon may be a password's: hidden.
    expect(showTypedLocation('npm:@bob:pw@host/r')).toBe('***@host/r');
  });

  it('1: registry names', () => {
    expect(checkRegistryName('acme.dev_2-x')).toBe('acme.dev_2-x');
    for (const bad of ['Acme', '_x', 'a/b', 'local', 'x'.repeat(65)]) {
      expect(() => checkRegistryName(bad)).toThrow(HookpmError);
    }
  });
});

/** What classifyLocation throws for `location`, read from /work (undefined: it threw nothing). */
function refusalOf(location: string): unknown {
  try {
    classifyLocation(location, '/work');
  } catch (error) {
    return error;
  }
  return undefined;
}
