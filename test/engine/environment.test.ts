import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  argvVariables,
  filterEnvironment,
  handlerEnvironment,
  substituteArgv,
} from '../../src/engine/environment.js';

const GH_TOKEN_VALUE = `ghp_${'a1B2'.repeat(9)}`;

describe('filterEnvironment (X5, widened: docs/reference/configuration.md#a-handlers-environment)', () => {
  it.each([
    ['KEY', 'OPENAI_API_KEY'],
    ['KEY', 'aws_secret_access_key'],
    ['KEY', 'KEY'],
    ['KEY', 'MONKEY'],
    ['TOKEN', 'GITHUB_TOKEN'],
    ['TOKEN', 'CI_JOB_TOKEN'],
    ['TOKEN', 'ACTIONS_RUNTIME_TOKEN'],
    ['TOKEN', 'ACTIONS_ID_TOKEN_REQUEST_URL'],
    ['TOKEN', 'NODE_AUTH_TOKEN'],
    ['SECRET', 'CLIENT_SECRET_FILE'],
    ['SECRET', 'AZURE_CLIENT_SECRET'],
    ['PASS', 'Db_Password'],
    ['PASS', 'DB_PASS'],
    ['PASS', 'CI_REGISTRY_PASSWORD'],
    ['PASS', 'PASSWD'],
    ['PASS', 'GPG_PASSPHRASE'],
    ['PASS', 'PGPASSFILE'],
    ['PASS', 'SSHPASS'],
    ['PASS', 'GIT_ASKPASS'],
    ['PWD', 'MYSQL_PWD'],
    ['PWD', 'db_pwd'],
    ['AUTH', 'npm_config__auth'],
    ['AUTH', 'npm_config__authtoken'],
    ['AUTH', 'npm_config_//registry.npmjs.org/:_auth'],
    ['AUTH', 'NPM_CONFIG_ALWAYS_AUTH'],
    ['AUTH', 'DOCKER_AUTH_CONFIG'],
    ['AUTH', 'HTTP_AUTHORIZATION'],
    ['AUTH', 'OAUTH_CLIENT'],
    ['CRED', 'GOOGLE_APPLICATION_CREDENTIALS'],
    ['CRED', 'AWS_SHARED_CREDENTIALS_FILE'],
    ['CRED', 'AWS_CONTAINER_CREDENTIALS_FULL_URI'],
    ['CRED', 'GOOGLE_GHA_CREDS_PATH'],
    ['JWT', 'CI_JOB_JWT_V2'],
    ['COOKIE', 'HTTP_COOKIE'],
    ['COOKIE', 'COOKIE_JAR'],
    ['WEBHOOK', 'SLACK_WEBHOOK_URL'],
    ['CONNECTION_STRING', 'AZURE_STORAGE_CONNECTION_STRING'],
    ['the word SESSION', 'BW_SESSION'],
    ['the word SESSION', 'OP_SESSION_my_team'],
    ['the word SESSION', 'SESSION_ID'],
    ['a last word PAT', 'GH_PAT'],
    ['a last word PAT', 'AZURE_DEVOPS_PAT'],
    ['the word DSN', 'SENTRY_DSN'],
    ['the word DSN', 'DATABASE_DSN_RO'],
    ['a credentials file', 'KUBECONFIG'],
    ['a credentials file', 'DOCKER_CONFIG'],
    ['a credentials file', 'NETRC'],
  ])('X5: a name with %s (%s) is removed', (_rule, name) => {
    expect(filterEnvironment({ [name]: 'v', PATH: '/bin' })).toEqual({ PATH: '/bin' });
  });

  it.each([
    ['DATABASE_URL', 'postgres://u:pw@h/db'],
    ['GIT_REMOTE', 'https://tok@host/x.git'],
    ['HTTPS_PROXY', 'http://user:pass@proxy.corp:3128'],
    ['REDIS_URL', 'redis://:secret@localhost:6379/0'],
    ['PIP_EXTRA_INDEX_URL', 'https://a.example/simple https://u:p@b.example/simple'],
    ['ORIGIN', 'ssh://git@github.com/org/repo.git'],
  ])(
    'X5: %s, whatever its name, goes when its value is a URL with a user part (%s)',
    (name, value) => {
      expect(filterEnvironment({ [name]: value, PATH: '/bin' })).toEqual({ PATH: '/bin' });
    },
  );

  // X5: a value is read in one pass, whatever its length (a 100 KB word before its `://` once
  // took seconds per variable at every dispatch); a scheme longer than any is still one.
  it.each([
    ['a 100 KB scheme', `${'a'.repeat(100_000)}://u:pw@h/`, true],
    ['a 100 KB scheme of digits after its letter', `x${'1'.repeat(100_000)}://u:pw@h/`, true],
    ['a 100 KB word, then ://@', `${'a'.repeat(100_000)} ://@`, false],
  ])('X5: %s is read at once', (_what, value, secret) => {
    const started = performance.now();
    const kept = filterEnvironment({ BLOB: value, PATH: '/bin' });
    expect(performance.now() - started).toBeLessThan(500);
    expect(kept).toEqual(secret ? { PATH: '/bin' } : { BLOB: value, PATH: '/bin' });
  });

  it.each([
    ['GitHub', GH_TOKEN_VALUE],
    ['GitHub fine-grained', 'github_pat_11ABCDEFG0123456789_abcdef'],
    ['GitLab', 'glpat-abcdefghij0123456789'],
    ['Slack', 'xoxb-1234-5678-abcdef'],
    ['OpenAI', 'sk-proj-abcdefghijklmnopqrstuvwx'],
    ['Anthropic', 'sk-ant-api03-abcdefghijklmnopqrst'],
    ['AWS access key id', 'AKIAIOSFODNN7EXAMPLE'],
    ['Google API key', `AIza${'x'.repeat(35)}`],
    ['npm', `npm_${'a'.repeat(36)}`],
    ['PyPI', 'pypi-AgEIcHlwaS5vcmcCJGE0'],
    ['PEM private key', '-----BEGIN OPENSSH PRIVATE KEY-----\nb3Blbn...'],
  ])(
    'X5: a variable of any name whose value starts as a %s credential is removed',
    (_kind, value) => {
      expect(filterEnvironment({ MY_SETTING: value, PATH: '/bin' })).toEqual({ PATH: '/bin' });
    },
  );

  it.each([
    ['PATH', '/usr/bin:/bin'],
    ['HOME', '/home/u'],
    ['PWD', '/home/u/project'],
    ['OLDPWD', '/home/u'],
    ['LANG', 'en_US.UTF-8'],
    ['TERM', 'xterm-256color'],
    ['USER', 'u'],
    ['SHELL', '/bin/bash'],
    ['TMPDIR', '/tmp'],
    ['CLAUDE_PROJECT_DIR', '/home/u/project'],
    ['CLAUDE_PLUGIN_ROOT', '/p'],
    ['SSH_AUTH_SOCK', '/tmp/ssh-XXXX/agent.1'],
    ['XAUTHORITY', '/run/user/1000/gdm/Xauthority'],
    ['DBUS_SESSION_BUS_ADDRESS', 'unix:path=/run/user/1000/bus'],
    ['SESSION_MANAGER', 'local/host:@/tmp/.ICE-unix/1234'],
    ['DESKTOP_SESSION', 'ubuntu'],
    ['XDG_SESSION_TYPE', 'wayland'],
    ['XDG_SESSION_ID', '2'],
    ['TERM_SESSION_ID', 'w0t0p0:1234'],
    ['WT_SESSION', 'f0e1d2c3'],
    ['ZELLIJ_SESSION_NAME', 'main'],
    ['CLAUDE_CODE_SESSION_ID', '3f2c9a70-0000-4000-8000-000000000000'],
    ['CLAUDECODE', '1'],
    ['GIT_AUTHOR_NAME', 'U'],
    ['GIT_AUTHOR_EMAIL', 'u@example.com'],
    ['AUTHOR', 'U'],
    ['AWS_REGION', 'eu-west-1'],
    ['AWS_PROFILE', 'dev'],
    ['AZURE_CLIENT_ID', '00000000-0000-0000-0000-000000000000'],
    ['GITHUB_REPOSITORY', 'org/repo'],
    ['CI', 'true'],
    ['NODE_EXTRA_CA_CERTS', '/etc/ssl/corp.pem'],
    ['HTTP_PROXY', 'http://proxy.corp:3128'],
    ['DATABASE_URL', 'postgres://localhost/db'],
    ['REGISTRY', 'https://example.com/@scope/pkg'],
    ['GIT_ORIGIN', 'git@github.com:org/repo.git'],
    ['EMAIL', 'u@example.com'],
    ['PATTERN', 'sk-short'],
    ['KE_Y', 'v'],
    ['TOKE', 'v'],
  ])('X5: %s=%s holds no secret and is kept', (name, value) => {
    expect(filterEnvironment({ [name]: value })).toEqual({ [name]: value });
  });

  it('X5: the name rule removes exactly what it removed as one regular expression, for names built of its words and their neighbours', () => {
    const SECRET_NAME =
      /KEY|TOKEN|SECRET|PASS|PWD|AUTH(?!OR(?:_|$))|CRED|JWT|COOKIE|WEBHOOK|CONNECTION_STRING|(?:^|_)(?:SESSION|PAT$|DSN(?:_|$))|^(?:KUBECONFIG|DOCKER_CONFIG|NETRC)$/;
    const words = [
      ...['KEY', 'TOKEN', 'SECRET', 'PASS', 'PWD', 'CRED', 'JWT', 'COOKIE', 'WEBHOOK'],
      ...['CONNECTION_STRING', 'KUBECONFIG', 'DOCKER_CONFIG', 'NETRC', 'auth', 'AUTH', 'Author'],
      ...['AUTHOR', 'AUTHORS', 'OR', 'SESSION', 'XSESSION', 'PAT', 'PATH', 'DSN', 'DSNS', 'X'],
      ...['_', ''],
    ];
    let removed = 0;
    // Compared here and the names judged wrongly listed at the end: one expect per name took
    // most of the test's time.
    const wrong: string[] = [];
    for (const a of words)
      for (const b of words)
        for (const c of words)
          for (const name of [`${a}_${b}_${c}`, `${a}${b}${c}`, `${a}${b}_${c}`]) {
            if (name === '' || name === 'PWD') continue; // PWD is kept by name
            const secret = SECRET_NAME.test(name.toUpperCase());
            if (secret) removed += 1;
            const kept = filterEnvironment({ [name]: 'v' });
            if (!isDeepStrictEqual(kept, secret ? {} : { [name]: 'v' })) wrong.push(name);
          }
    expect(wrong).toEqual([]);
    expect(removed).toBeGreaterThan(1000);
  });

  it('X5: a name the user passes through (settings.json env.pass) is kept, by exact name only', () => {
    const env = { GH_PAT: 'p', DATABASE_URL: 'postgres://u:pw@h/db', OPENAI_API_KEY: 'sk' };
    expect(filterEnvironment(env, ['GH_PAT', 'DATABASE_URL', 'NOT_SET'])).toEqual({
      GH_PAT: 'p',
      DATABASE_URL: 'postgres://u:pw@h/db',
    });
    expect(filterEnvironment(env, ['gh_pat', 'OPENAI_*'])).toEqual({});
  });

  it('X5: unset (undefined) entries are dropped and the input is not modified', () => {
    const env = { A: 'a', B: undefined, C_TOKEN: 'c' };
    expect(filterEnvironment(env)).toEqual({ A: 'a' });
    expect(env).toEqual({ A: 'a', B: undefined, C_TOKEN: 'c' });
  });
});

describe('handlerEnvironment (X5, plugins.md section 3)', () => {
  const base = {
    PATH: '/bin',
    OPENAI_API_KEY: 'sk',
    CLAUDE_PROJECT_DIR: '/old',
    PLUGIN_ROOT: '/inh',
  };

  it('X5: every handler gets CLAUDE_PROJECT_DIR (the given project root, not an inherited one)', () => {
    expect(handlerEnvironment(base, { pluginEnv: {} }, '/proj')).toEqual({
      PATH: '/bin',
      CLAUDE_PROJECT_DIR: '/proj',
    });
  });

  it('X5: a handler gets the passed-through names, never an inherited plugin variable even if passed', () => {
    const env = handlerEnvironment({ ...base, GH_PAT: 'p' }, { pluginEnv: {} }, '/proj', [
      'GH_PAT',
      'PLUGIN_ROOT',
    ]);
    expect(env).toEqual({ PATH: '/bin', GH_PAT: 'p', CLAUDE_PROJECT_DIR: '/proj' });
  });

  it('X5: a base filterEnvironment made with the same pass gives what the raw one gives; one made with other names passed is filtered again', () => {
    const raw = { ...base, GH_PAT: 'p', DATABASE_URL: 'postgres://u:pw@h/db', LANG: 'C' };
    const handler = { pluginEnv: { PLUGIN_ROOT: '/p' } };
    for (const pass of [[], ['GH_PAT'], ['GH_PAT', 'DATABASE_URL']]) {
      const expected = handlerEnvironment(raw, handler, '/proj', pass);
      expect(handlerEnvironment(filterEnvironment(raw, pass), handler, '/proj', pass)).toEqual(
        expected,
      );
      expect(handlerEnvironment(filterEnvironment(raw, pass), handler, '/proj', [...pass])).toEqual(
        expected,
      );
    }
    const passedAll = filterEnvironment(raw, ['GH_PAT', 'DATABASE_URL']);
    expect(handlerEnvironment(passedAll, handler, '/proj', ['GH_PAT'])).toEqual({
      PATH: '/bin',
      LANG: 'C',
      GH_PAT: 'p',
      CLAUDE_PROJECT_DIR: '/proj',
      PLUGIN_ROOT: '/p',
    });
    expect(handlerEnvironment(passedAll, handler, '/proj')).toEqual({
      PATH: '/bin',
      LANG: 'C',
      CLAUDE_PROJECT_DIR: '/proj',
      PLUGIN_ROOT: '/p',
    });
  });

  it('X5: a plugin handler gets its plugin variables; inherited plugin variables never leak', () => {
    const pluginEnv = {
      CLAUDE_PLUGIN_ROOT: '/p',
      PLUGIN_ROOT: '/p',
      CLAUDE_PLUGIN_DATA: '/d',
      PLUGIN_DATA: '/d',
    };
    expect(handlerEnvironment(base, { pluginEnv }, '/proj')).toEqual({
      PATH: '/bin',
      CLAUDE_PROJECT_DIR: '/proj',
      ...pluginEnv,
    });
  });
});

describe('substituteArgv (V2, X3)', () => {
  const vars = argvVariables(
    {
      pluginEnv: {
        CLAUDE_PLUGIN_ROOT: '/p',
        PLUGIN_ROOT: '/p',
        CLAUDE_PLUGIN_DATA: '/d',
        PLUGIN_DATA: '/d',
      },
    },
    '/proj',
  );

  it.each([
    ['${CLAUDE_PLUGIN_ROOT}/bin/run', '/p/bin/run'],
    ['${PLUGIN_ROOT}', '/p'],
    ['${CLAUDE_PLUGIN_DATA}:${PLUGIN_DATA}', '/d:/d'],
    ['--dir=${CLAUDE_PROJECT_DIR}', '--dir=/proj'],
    ['$CLAUDE_PLUGIN_ROOT', '$CLAUDE_PLUGIN_ROOT'],
    ['${HOME}', '${HOME}'],
    ['${CLAUDE_PLUGIN_ROOT:-.}', '${CLAUDE_PLUGIN_ROOT:-.}'],
    ['$(id)', '$(id)'],
    ['`id`', '`id`'],
    ['~/x', '~/x'],
    ['*.json', '*.json'],
    ['$${PLUGIN_ROOT}', '$/p'],
    ['{PLUGIN_ROOT}', '{PLUGIN_ROOT}'],
  ])('V2: %s becomes %s', (element, expected) => {
    expect(substituteArgv([element], vars)).toEqual([expected]);
  });

  it('V2: a known name without a value (not a plugin handler) stays literal', () => {
    expect(
      substituteArgv(['${CLAUDE_PLUGIN_ROOT}/x'], argvVariables({ pluginEnv: {} }, '/proj')),
    ).toEqual(['${CLAUDE_PLUGIN_ROOT}/x']);
  });

  it('V2: substitution is one pass: a value containing ${...} is not expanded again', () => {
    const tricky = argvVariables({ pluginEnv: { PLUGIN_ROOT: '${CLAUDE_PROJECT_DIR}' } }, '/proj');
    expect(substituteArgv(['${PLUGIN_ROOT}'], tricky)).toEqual(['${CLAUDE_PROJECT_DIR}']);
  });

  it('V2: elements are never split or joined', () => {
    expect(substituteArgv(['a b', '', '${PLUGIN_ROOT} c'], vars)).toEqual(['a b', '', '/p c']);
  });
});
