import { describe, expect, it } from 'vitest';
import { gitHeaderEnvironment, gitHeadersFor } from '../../src/registry/git/git-auth.js';
import { failure } from '../helpers/failure.js';

const basic = (user: string, token: string): string =>
  `Basic ${Buffer.from(`${user}:${token}`).toString('base64')}`;

describe('gitHeadersFor (registry.md K6: tokens by host kind, for that origin only)', () => {
  it('K6: GITHUB_TOKEN before GH_TOKEN on github.com; GITLAB_TOKEN/GL_TOKEN on gitlab.com; BITBUCKET_TOKEN on bitbucket.org', async () => {
    const env = { GITHUB_TOKEN: 'gh1', GH_TOKEN: 'gh2', GL_TOKEN: 'gl', BITBUCKET_TOKEN: 'bb' };
    expect(await gitHeadersFor('https://github.com/acme/m.git', env, {})).toEqual({
      Authorization: basic('x-access-token', 'gh1'),
    });
    expect(await gitHeadersFor('https://GitHub.com/acme/m.git', { GH_TOKEN: 'gh2' }, {})).toEqual({
      Authorization: basic('x-access-token', 'gh2'),
    });
    expect(await gitHeadersFor('https://gitlab.com/acme/m.git', env, {})).toEqual({
      Authorization: basic('oauth2', 'gl'),
    });
    expect(await gitHeadersFor('https://bitbucket.org/acme/m.git', env, {})).toEqual({
      Authorization: basic('x-token-auth', 'bb'),
    });
  });

  it('K6: no token for other hosts, look-alike hosts, other ports, URLs with their own credentials, or ssh', async () => {
    const env = { GITHUB_TOKEN: 'gh1', GITLAB_TOKEN: 'gl' };
    for (const url of [
      'https://github.com.evil.example/acme/m.git',
      'https://evil.example/github.com/m.git',
      'https://github.com:8443/acme/m.git',
      'https://user:pw@github.com/acme/m.git',
      'ssh://git@github.com/acme/m.git',
      'git@github.com:acme/m.git',
    ])
      expect(await gitHeadersFor(url, env, {}), url).toEqual({});
  });

  it('K6: git.hosts adds hosts of a kind (host or host:port)', async () => {
    const settings = { hosts: { github: ['ghe.acme.example'], gitlab: ['127.0.0.1:9443'] } };
    const env = { GITHUB_TOKEN: 'gh1', GITLAB_TOKEN: 'gl' };
    expect(await gitHeadersFor('https://ghe.acme.example/a/m.git', env, settings)).toEqual({
      Authorization: basic('x-access-token', 'gh1'),
    });
    expect(await gitHeadersFor('http://127.0.0.1:9443/a/m.git', env, settings)).toEqual({
      Authorization: basic('oauth2', 'gl'),
    });
    expect(await gitHeadersFor('http://127.0.0.1:9444/a/m.git', env, settings)).toEqual({});
  });

  it('K6: the headers helper is told the URL and host; its headers win; bad output is E_GIT without quoting it', async () => {
    const helper =
      'printf \'{"Authorization":"Bearer %s","X-Host":"%s"}\' "$HOOKPM_GIT_URL" "$HOOKPM_GIT_HOST"';
    expect(
      await gitHeadersFor(
        'https://github.com/acme/m.git?x=1',
        { GITHUB_TOKEN: 't' },
        {
          headersHelper: helper,
        },
      ),
    ).toEqual({ Authorization: 'Bearer https://github.com/acme/m.git', 'X-Host': 'github.com' });
    const notJson = await failure(
      gitHeadersFor('https://example.test/m.git', {}, { headersHelper: 'echo secret-value' }),
    );
    expect(notJson.code).toBe('E_GIT');
    expect(notJson.message).toMatch(/not JSON/);
    expect(JSON.stringify([notJson.message, notJson.details, notJson.hint])).not.toContain(
      'secret-value',
    );
    const badHeader = await failure(
      gitHeadersFor(
        'https://example.test/m.git',
        {},
        {
          headersHelper: `printf '{"X":"a\\\\r\\\\nInjected: 1"}'`,
        },
      ),
    );
    expect(badHeader.message).toMatch(/not valid/);
  });
});

describe('gitHeaderEnvironment (registry.md K6: through the environment, never argv)', () => {
  it('K6: entries follow any GIT_CONFIG_COUNT already set, keyed by origin, redirects off', () => {
    const env = gitHeaderEnvironment({ GIT_CONFIG_COUNT: '2' }, 'https://github.com/acme/m.git', {
      Authorization: 'Basic x',
    });
    expect(env).toEqual({
      GIT_CONFIG_COUNT: '4',
      GIT_CONFIG_KEY_2: 'http.followRedirects',
      GIT_CONFIG_VALUE_2: 'false',
      GIT_CONFIG_KEY_3: 'http.https://github.com/.extraHeader',
      GIT_CONFIG_VALUE_3: 'Authorization: Basic x',
    });
    expect(gitHeaderEnvironment({}, 'https://github.com/acme/m.git', {})).toEqual({});
  });
});
