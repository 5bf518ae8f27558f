import { describe, expect, it } from 'vitest';
import { authorizationFor } from '../../src/registry/npm/npm-auth.js';
import type { NpmConfig } from '../../src/registry/npm/npm-config.js';

// A package document may name a tarball URL of megabytes: matching credentials against such a
// URL must cost one pass over it, not one per path segment (registry.md K5).

/** 1,000,000 path segments: 2 MB of URL path. */
const LONG_PATH = 'a/'.repeat(1_000_000);

function configOf(values: Record<string, string>): NpmConfig {
  return {
    layers: [{ source: 'user', file: '/nowhere/.npmrc', values }],
    get: (key) => (Object.hasOwn(values, key) ? values[key] : undefined),
  };
}

describe('npm credentials for a URL of a million segments (registry.md K5)', () => {
  it('K5: the longest configured prefix answers, without a walk per segment', () => {
    const config = configOf({
      '//127.0.0.1:1/:_authToken': 'host-token',
      '//127.0.0.1:1/a/a/:_authToken': 'deeper-token',
      '//127.0.0.1:1/a/a/ab:_authToken': 'another-path',
    });
    const deep = new URL(`http://127.0.0.1:1/${LONG_PATH}`);
    expect(authorizationFor(config, deep, 'https://registry.npmjs.org/')).toBe(
      'Bearer deeper-token',
    );
    const other = new URL(`http://127.0.0.1:1/b/${LONG_PATH}`);
    expect(authorizationFor(config, other, 'https://registry.npmjs.org/')).toBe(
      'Bearer host-token',
    );
    const top = configOf({ _authToken: 'default-token' });
    expect(authorizationFor(top, deep, 'http://127.0.0.1:1/')).toBe('Bearer default-token');
    expect(authorizationFor(top, deep, 'http://127.0.0.1:1/b/')).toBeUndefined();
  });
});
