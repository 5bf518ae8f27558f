import { describe, expect, it } from 'vitest';
import {
  argvVariables,
  filterEnvironment,
  handlerEnvironment,
  substituteArgv,
} from '../../src/engine/environment.js';

describe('filterEnvironment (X5)', () => {
  it.each([
    ['OPENAI_API_KEY'],
    ['GITHUB_TOKEN'],
    ['aws_secret_access_key'],
    ['Db_Password'],
    ['KEY'],
    ['MONKEY'],
    ['npm_config__authtoken'],
    ['CLIENT_SECRET_FILE'],
  ])('X5: %s (upper-cased, contains KEY/TOKEN/SECRET/PASSWORD) is removed', (name) => {
    expect(filterEnvironment({ [name]: 'v', PATH: '/bin' })).toEqual({ PATH: '/bin' });
  });

  it.each([['PATH'], ['HOME'], ['KE_Y'], ['PASSWD'], ['TOKE'], ['LANG']])(
    'X5: %s does not contain a marker and is kept',
    (name) => {
      expect(filterEnvironment({ [name]: 'v' })).toEqual({ [name]: 'v' });
    },
  );

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
