import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  gitHeaderEnvironment,
  gitHeadersFor,
  HEADERS_HELPER_TIMEOUT_MS,
} from '../../src/registry/git/git-auth.js';
import { withoutUserInfo } from '../../src/registry/http/url-policy.js';
import { failure } from '../helpers/failure.js';
import { useTempDir } from '../helpers/temp-dir.js';

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

  it('K6: no token for other hosts, look-alike hosts, other ports, or ssh', async () => {
    const env = { GITHUB_TOKEN: 'gh1', GITLAB_TOKEN: 'gl' };
    for (const url of [
      'https://github.com.evil.example/acme/m.git',
      'https://evil.example/github.com/m.git',
      'https://github.com:8443/acme/m.git',
      'ssh://git@github.com/acme/m.git',
      'git@github.com:acme/m.git',
    ])
      expect(await gitHeadersFor(url, env, {}), url).toEqual({});
  });

  it("K6: a URL's own user and password are its Basic auth, instead of any token; git gets the URL without them", async () => {
    const env = { GITHUB_TOKEN: 'gh1' };
    expect(await gitHeadersFor('https://user:p%40ss@github.com/acme/m.git', env, {})).toEqual({
      Authorization: basic('user', 'p@ss'),
    });
    expect(await gitHeadersFor('https://:tok@example.test/m.git', env, {})).toEqual({
      Authorization: basic('', 'tok'),
    });
    expect(withoutUserInfo('https://user:p%40ss@github.com/acme/m.git')).toBe(
      'https://github.com/acme/m.git',
    );
    expect(withoutUserInfo('https://github.com/acme/m.git')).toBe('https://github.com/acme/m.git');
    expect(withoutUserInfo('git@github.com:acme/m.git')).toBe('git@github.com:acme/m.git');
    expect(withoutUserInfo('ssh://git@github.com/acme/m.git')).toBe(
      'ssh://git@github.com/acme/m.git',
    );
  });

  it("K6: a URL's user without a password is no credential: the host's token applies, else git's credential helpers answer for that user", async () => {
    const env = { BITBUCKET_TOKEN: 'bb' };
    // Bitbucket's and Azure DevOps' clone URLs name the account: `https://jdoe@bitbucket.org/...`.
    expect(await gitHeadersFor('https://jdoe@bitbucket.org/ws/m.git', env, {})).toEqual({
      Authorization: basic('x-token-auth', 'bb'),
    });
    expect(await gitHeadersFor('https://org@dev.azure.com/org/p/_git/m', env, {})).toEqual({});
    // git is told the user through its environment, for its credential helpers.
    expect(gitHeaderEnvironment({}, 'https://j%40corp@dev.azure.com/org/p/_git/m', {})).toEqual({
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'credential.https://dev.azure.com.username',
      GIT_CONFIG_VALUE_0: 'j@corp',
    });
    expect(gitHeaderEnvironment({}, 'https://a%0Ahost=x@example.test/m.git', {})).toEqual({});
    expect(gitHeaderEnvironment({}, 'https://a%00@example.test/m.git', {})).toEqual({});
    expect(gitHeaderEnvironment({}, 'ssh://git@example.test/m.git', {})).toEqual({});
    expect(gitHeaderEnvironment({}, 'git@example.test:m.git', {})).toEqual({});
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

  it("K6: a git.hosts entry with the scheme's default port names the host without one, and only over that scheme", async () => {
    const settings = { hosts: { github: ['ghe.acme.example:443', '127.0.0.1:80'] } };
    const env = { GITHUB_TOKEN: 'gh1' };
    const token = { Authorization: basic('x-access-token', 'gh1') };
    expect(await gitHeadersFor('https://ghe.acme.example/a/m.git', env, settings)).toEqual(token);
    expect(await gitHeadersFor('https://ghe.acme.example:443/a/m.git', env, settings)).toEqual(
      token,
    );
    expect(await gitHeadersFor('http://127.0.0.1/a/m.git', env, settings)).toEqual(token);
    expect(await gitHeadersFor('https://127.0.0.1/a/m.git', env, settings)).toEqual({});
    expect(await gitHeadersFor('http://ghe.acme.example/a/m.git', env, settings)).toEqual({});
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

  it('K6: a helper command holding a NUL byte is E_GIT, never quoting the command', async () => {
    const error = await failure(
      gitHeadersFor(
        'https://example.test/m.git',
        {},
        { headersHelper: `echo '{"Authorization":"Bearer helper-secret"}'\0` },
      ),
    );
    expect(error.code).toBe('E_GIT');
    expect(error.message).toMatch(/headers helper failed .*NUL byte/);
    expect(JSON.stringify([error.message, error.details, error.hint])).not.toContain(
      'helper-secret',
    );
  });
});

describe('the headers helper at its deadline (registry.md K6)', () => {
  const tmp = useTempDir('git-helper');

  it('K6: a helper whose child holds its output open is E_GIT at the deadline, the child killed with it', async () => {
    // K6's deadline is 10 s (HEADERS_HELPER_TIMEOUT_MS); a shorter one keeps the test short.
    const deadline = 500;
    const pidFile = join(tmp.dir, 'child.pid');
    const started = Date.now();
    const error = await failure(
      gitHeadersFor(
        'https://example.test/m.git',
        {},
        { headersHelper: `sleep 60 & echo $! > ${pidFile}; wait; echo '{}'` },
        deadline,
      ),
    );
    const took = Date.now() - started;
    expect(error.code).toBe('E_GIT');
    expect(error.message).toMatch(/no answer within 0\.5 s/);
    expect(took).toBeGreaterThanOrEqual(deadline - 50);
    expect(took).toBeLessThan(deadline + 5_000);
    const pid = Number((await readFile(pidFile, 'utf8')).trim());
    // Gone, or a zombie its new parent has not reaped yet. A SIGKILL takes effect when the process
    // next runs: on a loaded machine it can still show as running for a moment.
    const dead = (stat: string | null) => stat === null || /^\d+ \(sleep\) Z/.test(stat);
    let stat: string | null = null;
    for (const until = Date.now() + 2_000; ; await new Promise((done) => setTimeout(done, 20))) {
      stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
      if (dead(stat) || Date.now() > until) break;
    }
    expect(dead(stat), stat ?? '').toBe(true);
  });

  it('K6: the deadline is 10 s', () => {
    expect(HEADERS_HELPER_TIMEOUT_MS).toBe(10_000);
  });
});

describe('gitHeaderEnvironment (registry.md K6: through the environment, never argv)', () => {
  it('K6: entries follow any GIT_CONFIG_COUNT already set, keyed by origin, redirects off (also for the exact URL)', () => {
    const env = gitHeaderEnvironment(
      { GIT_CONFIG_COUNT: '2' },
      'https://u:pw@github.com/acme/m.git',
      { Authorization: 'Basic x' },
    );
    expect(env).toEqual({
      GIT_CONFIG_COUNT: '5',
      GIT_CONFIG_KEY_2: 'http.followRedirects',
      GIT_CONFIG_VALUE_2: 'false',
      GIT_CONFIG_KEY_3: 'http.https://github.com/acme/m.git.followRedirects',
      GIT_CONFIG_VALUE_3: 'false',
      GIT_CONFIG_KEY_4: 'http.https://github.com/.extraHeader',
      GIT_CONFIG_VALUE_4: 'Authorization: Basic x',
    });
    expect(gitHeaderEnvironment({}, 'https://github.com/acme/m.git', {})).toEqual({});
  });
});
