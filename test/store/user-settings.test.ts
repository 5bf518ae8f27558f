import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { homeStorePaths } from '../../src/store/home-paths.js';
import { readUserSettings, settingsFile } from '../../src/store/user-settings.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tmp = useTempDir('user-settings');
let n = 0;

/** A fresh store whose settings.json holds `text` (none when undefined). */
function storeWith(text?: string) {
  n += 1;
  const paths = homeStorePaths(join(tmp.dir, `home${n}`));
  if (text !== undefined) {
    mkdirSync(paths.config, { recursive: true });
    writeFileSync(settingsFile(paths), text);
  }
  return paths;
}

const LOG_DEFAULT = { enabled: true, text: false };
const FAIL_CLOSED = { all: false, plugins: [] };

describe('settings.json: variables passed through X5 (registry.md D1, engine.md X5)', () => {
  it('X5: {"env": {"pass": [...]}} names the variables to pass through; other keys are left alone', () => {
    const paths = storeWith('{"env": {"pass": ["GH_PAT", "npm_config__auth"]}, "later": 1}');
    expect(readUserSettings(paths)).toEqual({
      passEnv: ['GH_PAT', 'npm_config__auth'],
      log: LOG_DEFAULT,
      failOpen: FAIL_CLOSED,
      diagnostics: [],
    });
  });

  it.each(['{}', '{"env": {}}', '{"env": {"pass": []}}'])(
    'X5: %s passes nothing through, without a diagnostic',
    (text) => {
      expect(readUserSettings(storeWith(text))).toEqual({
        passEnv: [],
        log: LOG_DEFAULT,
        failOpen: FAIL_CLOSED,
        diagnostics: [],
      });
    },
  );

  it('S5: a missing settings.json (or config directory) is no diagnostic', () => {
    expect(readUserSettings(storeWith())).toEqual({
      passEnv: [],
      log: LOG_DEFAULT,
      failOpen: FAIL_CLOSED,
      diagnostics: [],
    });
  });

  it.each([
    ['{"env": {"pass": ["A"]},}', 'invalid JSON'],
    ['{"env": {"pass": ["A"], "pass": ["B"]}}', 'duplicate key'],
    ['[]', 'expected a JSON object, found an empty array'],
    ['{"env": ["GH_PAT"]}', 'env must be an object'],
    ['{"env": {"pass": "GH_PAT"}}', 'env.pass must be an array of names, found "GH_PAT"'],
    ['{"env": {"pass": ["OK", 7]}}', 'env.pass[1] must be a variable name'],
    ['{"env": {"pass": ["A=B"]}}', 'env.pass[0] must be a variable name'],
    ['{"env": {"pass": [""]}}', 'env.pass[0] must be a variable name'],
    ['{"env": {"pass": ["A"]}, "log": []}', 'log must be an object'],
    ['{"env": {"pass": ["A"]}, "log": {"text": 1}}', 'log.text must be true or false, found 1'],
  ])(
    'X5 (fail closed): settings.json %s passes nothing and gives config_read_failed (%s)',
    (text, why) => {
      const paths = storeWith(text);
      const read = readUserSettings(paths);
      expect(read.passEnv).toEqual([]);
      expect(read.diagnostics).toMatchObject([
        { code: 'config_read_failed', severity: 'warning', path: settingsFile(paths) },
      ]);
      expect(read.diagnostics[0]?.message).toContain(why);
      expect(read.diagnostics[0]?.message).toContain('no variable is passed through');
    },
  );

  it('X5 (fail closed): a settings.json that is not a regular file (a directory) passes nothing, with config_read_failed', () => {
    const paths = storeWith();
    mkdirSync(settingsFile(paths), { recursive: true });
    const read = readUserSettings(paths);
    expect(read.passEnv).toEqual([]);
    expect(read.diagnostics).toMatchObject([{ code: 'config_read_failed' }]);
    expect(read.diagnostics[0]?.message).toContain('it is a directory, not a regular file');
  });
});

describe('settings.json: the decision log', () => {
  it('log.enabled and log.text are read; the log defaults to on, without text', () => {
    expect(readUserSettings(storeWith('{"log": {"text": true}}')).log).toEqual({
      enabled: true,
      text: true,
    });
    expect(readUserSettings(storeWith('{"log": {"enabled": false}}')).log).toEqual({
      enabled: false,
      text: false,
    });
    const bad = readUserSettings(storeWith('{"log": {"enabled": "no"}}'));
    expect(bad.log).toEqual(LOG_DEFAULT);
    expect(bad.diagnostics[0]?.message).toContain('log.enabled must be true or false');
  });

  it('B6: failOpen is true or a list of plugin ids; anything else is not used, and nothing fails open', () => {
    expect(readUserSettings(storeWith('{"failOpen": true}')).failOpen).toEqual({
      all: true,
      plugins: [],
    });
    expect(readUserSettings(storeWith('{"failOpen": ["guard@examples"]}')).failOpen).toEqual({
      all: false,
      plugins: ['guard@examples'],
    });
    for (const bad of ['{"failOpen": "yes"}', '{"failOpen": [""]}', '{"failOpen": [1]}']) {
      const read = readUserSettings(storeWith(bad));
      expect(read.failOpen).toEqual(FAIL_CLOSED);
      expect(read.diagnostics[0]?.message).toContain('failOpen must be');
    }
  });
});
