/**
 * docs/reference/rules/registry.md J3 as a pure function: the forms a registry location of
 * hookpm.json may take, and everything else refused with E_REGISTRY_LOCATION before use.
 */
import { describe, expect, it } from 'vitest';
import { isHookpmError } from '../../src/errors.js';
import { parseProjectRegistryLocation } from '../../src/project/project-registry-location.js';

const ROOT = '/work/repo';

function refusal(location: string): string | undefined {
  try {
    parseProjectRegistryLocation('team', location, ROOT);
  } catch (error) {
    if (!isHookpmError(error)) return 'not a HookpmError';
    expect(error.message).toContain('the registry team');
    return error.code;
  }
  return undefined;
}

describe('registry locations of hookpm.json (J3)', () => {
  it.each([
    ['https://plugins.example/team/', { kind: 'url', url: 'https://plugins.example/team/' }],
    ['http://127.0.0.1:8080/', { kind: 'url', url: 'http://127.0.0.1:8080/' }],
    ['registry', { kind: 'path', path: '/work/repo/registry' }],
    ['./tools/registry', { kind: 'path', path: '/work/repo/tools/registry' }],
    ['/abs/registry', { kind: 'path', path: '/abs/registry' }],
    ['file:///work/repo/registry/', { kind: 'path', path: '/work/repo/registry/' }],
  ])('J3: %s is read as an index registry location', (location, expected) => {
    expect(parseProjectRegistryLocation('team', location, ROOT)).toEqual(expected);
  });

  it.each([
    'https://example.com/team/plugins.git',
    'http://127.0.0.1:8080/team/plugins.git',
    'file:///srv/git/plugins.git/',
  ])('J12: %s is read as a git marketplace location', (location) => {
    expect(parseProjectRegistryLocation('team', location, ROOT)).toEqual({
      kind: 'git',
      url: location,
    });
  });

  it.each([
    'ext::sh -c touch% /tmp/pwned',
    'javascript:alert(1)',
    'data:application/json,{}',
    '--upload-pack=touch /tmp/pwned',
    '-oProxyCommand=touch /tmp/pwned',
    ' --config=core.sshCommand=x',
    'ssh://-oProxyCommand=x/repo',
    'git://example.com/repo',
    'git+https://example.com/repo.git',
    'git@example.com:team/plugins.git',
    'https://user:token@example.com/team/plugins.git',
    'https://x-access-token@example.com/team/plugins.git',
    'https://example.com/team/plugins.git#main',
    'file://other-host/srv/plugins.git',
    'fd::17',
    'ftp://example.com/',
    'file://other-host/registry',
    'file:///work/repo/a%2Fregistry',
    'https://exa mple.com/\u0000',
    'registry\nx',
    'file:///work/repo/reg%00istry',
    'file:///work/repo/reg%1bistry',
    'file:///work/repo/a%2Fplugins.git',
    'file:///work/repo/plugins%00.git',
  ])('J3: %j is E_REGISTRY_LOCATION', (location) => {
    expect(refusal(location)).toBe('E_REGISTRY_LOCATION');
  });
});

describe('the location an E_REGISTRY_LOCATION names (registry.md N5)', () => {
  it.each(['bob:s3cret@host/registry', 'u:s3cret@h:x', 'ftp://u:s3/cret@h/', 'ftp://u:s3 cret@h/'])(
    'N5: %j is refused without its password, as typed URLs are shown',
    (location) => {
      let message = '';
      try {
        parseProjectRegistryLocation('team', location, ROOT);
      } catch (error) {
        if (!isHookpmError(error)) throw error;
        expect(error.code).toBe('E_REGISTRY_LOCATION');
        message = `${error.message} ${JSON.stringify(error.details)}`;
      }
      expect(message).toContain('***@h');
      expect(message).not.toContain('s3');
    },
  );
});
