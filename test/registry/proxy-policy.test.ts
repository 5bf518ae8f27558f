/**
 * registry.md N13: which proxy a URL goes through, from the environment (lower case first, as
 * curl and undici read it) or npm's configuration (`.npmrc` over the environment), and NO_PROXY.
 */
import { describe, expect, it } from 'vitest';
import {
  npmProxySettings,
  proxyFor,
  proxySettingsFromEnv,
  type ProxySettings,
} from '../../src/registry/http/proxy-policy.js';

const via = (url: string, settings: ProxySettings) => proxyFor(new URL(url), settings)?.href;

describe('registry.md N13: proxy settings', () => {
  it('N13: lower-case variables win; https falls back to the http proxy', () => {
    expect(
      proxySettingsFromEnv({ HTTPS_PROXY: 'http://up:1', https_proxy: 'http://low:1' }).https,
    ).toBe('http://low:1');
    expect(proxySettingsFromEnv({ HTTP_PROXY: 'http://p:1' })).toEqual({
      https: 'http://p:1',
      http: 'http://p:1',
    });
    expect(proxySettingsFromEnv({ https_proxy: '', HTTPS_PROXY: 'http://p:1' }).https).toBe(
      undefined,
    );
    expect(proxySettingsFromEnv({ NO_PROXY: 'a', no_proxy: 'b' }).noProxy).toBe('b');
  });

  it('N13: .npmrc proxy, https-proxy and noproxy win over the environment', () => {
    const npmrc: Record<string, string> = { proxy: 'http://npm:1', noproxy: 'corp.example' };
    const env = { HTTPS_PROXY: 'http://env:1', NO_PROXY: 'other.example' };
    expect(npmProxySettings((k) => npmrc[k], env)).toEqual({
      https: 'http://npm:1',
      http: 'http://npm:1',
      noProxy: 'corp.example',
    });
    npmrc['https-proxy'] = 'http://secure:1';
    expect(npmProxySettings((k) => npmrc[k], env).https).toBe('http://secure:1');
    expect(npmProxySettings(() => undefined, env).https).toBe('http://env:1');
    expect(npmProxySettings((k) => (k === 'proxy' ? 'false' : undefined), env).https).toBe(
      'http://env:1',
    );
  });

  it('N13: NO_PROXY names hosts, domain suffixes, host:port, [v6] and *', () => {
    const s = (noProxy: string): ProxySettings => ({ https: 'http://p:3128', noProxy });
    expect(via('https://registry.corp.example/x', s('.corp.example'))).toBeUndefined();
    expect(via('https://registry.corp.example/x', s('*.corp.example'))).toBeUndefined();
    expect(via('https://corp.example/x', s('corp.example'))).toBeUndefined();
    expect(via('https://CORP.example/x', s('other, Corp.Example'))).toBeUndefined();
    expect(via('https://notcorp.example/x', s('corp.example'))).toBe('http://p:3128/');
    expect(via('https://h.test:8443/x', s('h.test:8443'))).toBeUndefined();
    expect(via('https://h.test/x', s('h.test:8443'))).toBe('http://p:3128/');
    expect(via('https://h.test/x', s('h.test:443'))).toBeUndefined();
    expect(via('https://[::1]:9/x', s('[::1]'))).toBeUndefined();
    expect(via('https://[::1]:9/x', s('::1'))).toBeUndefined();
    expect(via('https://anything.test/x', s('*'))).toBeUndefined();
  });

  it('N13: a proxy without a scheme is http://; one of another scheme is refused, redacted', () => {
    expect(via('https://r.test/', { https: 'proxy.corp:3128' })).toBe('http://proxy.corp:3128/');
    expect(via('http://127.0.0.1/', { https: 'http://p:1' })).toBeUndefined();
    expect(() => via('https://r.test/', { https: 'ftp://u:hunter2@p:1' })).toThrow(
      expect.objectContaining({
        code: 'E_REGISTRY_NETWORK',
        message: expect.not.stringContaining('hunter2'),
      }),
    );
  });

  it('N13, N5: a proxy value that is no URL is refused with its user part hidden, spaces and all', () => {
    for (const written of ['http://bob:two words@[bad', 'bob:two words@[bad:1']) {
      expect(() => via('https://r.test/', { https: written })).toThrow(
        expect.objectContaining({
          code: 'E_REGISTRY_NETWORK',
          message: expect.not.stringMatching(/bob|two|words/),
        }),
      );
    }
  });

  // cli.md Conventions: what was found, and the fix in the hint: an http proxy whose password
  // holds a "/", "#" or "?" does not parse, and is no other scheme.
  it('N13, N5: an http(s) proxy that does not parse is not a valid URL, its password to encode', () => {
    for (const written of [
      'http://bob:pa/ss@p:3128',
      'https://bob:pa#ss@p:3128',
      'bob:pa?ss@p:1',
    ]) {
      expect(() => via('https://r.test/', { https: written })).toThrow(
        expect.objectContaining({
          code: 'E_REGISTRY_NETWORK',
          message: expect.stringMatching(
            /^the proxy https?:\/\/\*\*\*@p:\d+\/? is not a valid URL$/,
          ),
          hint: expect.stringContaining('percent-encoding'),
        }),
      );
    }
  });

  // N5: a non-http(s) scheme's URL can parse with the password read as a port and a path
  // (`socks5://bob:12/pw@p` is the host `bob`, port 12): everything before the last `@` is hidden.
  it('N13, N5: a proxy of another scheme is refused with all before its last @ hidden', () => {
    for (const written of ['socks5://bob:2024/hunter2@p:1080', 'socks5://bob:1/x?hunter2#y@p']) {
      expect(() => via('https://r.test/', { https: written })).toThrow(
        expect.objectContaining({
          code: 'E_REGISTRY_NETWORK',
          message: expect.not.stringMatching(/bob|hunter2/),
        }),
      );
    }
  });

  it('N13: a proxy is its scheme, host and port: a path, query or fragment is ignored', () => {
    expect(via('https://r.test/', { https: 'http://p:3128/some/path?x=1#f' })).toBe(
      'http://p:3128/',
    );
    expect(via('https://r.test/', { https: 'http://u:pw@p:3128/pac' })).toBe('http://u:pw@p:3128/');
  });

  it('N13: a trailing dot of the host or of a NO_PROXY entry is ignored, as curl ignores it', () => {
    const s = (noProxy: string): ProxySettings => ({ https: 'http://p:3128', noProxy });
    expect(via('https://registry.corp.example./x', s('corp.example'))).toBeUndefined();
    expect(via('https://registry.corp.example/x', s('.corp.example.'))).toBeUndefined();
    expect(via('https://corp.example/x', s('corp.example.:443'))).toBeUndefined();
    expect(via('https://corp.example./x', s('other.example.'))).toBe('http://p:3128/');
  });

  it('N13: a CIDR entry names the IP addresses in it, as curl reads it; names never match it', () => {
    const s = (noProxy: string): ProxySettings => ({ https: 'http://p:3128', noProxy });
    expect(via('https://10.1.2.3/x', s('10.0.0.0/8'))).toBeUndefined();
    expect(via('https://11.1.2.3/x', s('10.0.0.0/8'))).toBe('http://p:3128/');
    expect(via('https://192.168.1.9/x', s('x.test, 192.168.1.0/24'))).toBeUndefined();
    expect(via('https://[fd00::5]/x', s('fd00::/8'))).toBeUndefined();
    expect(via('https://[fe80::5]/x', s('[fd00::]/8'))).toBe('http://p:3128/');
    expect(via('https://10.0.0.1/x', s('fd00::/8'))).toBe('http://p:3128/');
    expect(via('https://10.corp.example/x', s('10.0.0.0/8'))).toBe('http://p:3128/');
    expect(via('https://10.1.2.3/x', s('10.0.0.0/99'))).toBe('http://p:3128/');
    // The subnet's own address need not end in zeros; its case and `::` form do not matter.
    expect(via('https://10.200.0.1/x', s('10.1.2.3/8'))).toBeUndefined();
    expect(via('https://[fd00:0:0::5]/x', s('FD00::/16'))).toBeUndefined();
    expect(via('https://[::ffff:10.0.0.1]/x', s('10.0.0.0/8'))).toBe('http://p:3128/');
    expect(via('https://10.0.0.1/x', s('10.0.0/8'))).toBe('http://p:3128/');
  });
});
