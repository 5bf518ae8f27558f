import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { homeStorePaths } from '../../src/store/home-paths.js';
import { writeUpdateSetting } from '../../src/store/update-settings.js';
import { settingsFile } from '../../src/store/user-settings.js';
import { useTempDir } from '../helpers/temp-dir.js';

const tmp = useTempDir('update-settings');
let n = 0;

/** A fresh store whose settings.json holds `bytes`. */
function storeWith(bytes: Uint8Array) {
  n += 1;
  const paths = homeStorePaths(join(tmp.dir, `home${n}`));
  mkdirSync(paths.config, { recursive: true });
  writeFileSync(settingsFile(paths), bytes);
  return paths;
}

describe('hookpm config set: settings.json (policy.md A15)', () => {
  it('A15: keeps the other keys of the file and sets the one named', async () => {
    const paths = storeWith(Buffer.from('{"env": {"pass": ["A"]}}'));
    await writeUpdateSetting(paths, 'updates.check', 'daily');
    expect(JSON.parse(readFileSync(settingsFile(paths), 'utf8'))).toEqual({
      env: { pass: ['A'] },
      updates: { check: 'daily' },
    });
  });

  it('A15: a file that is not UTF-8 is refused with E_IO and left byte-identical', async () => {
    const before = Buffer.concat([
      Buffer.from('{"note": "'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('"}'),
    ]);
    const paths = storeWith(before);
    await expect(writeUpdateSetting(paths, 'updates.check', 'daily')).rejects.toMatchObject({
      code: 'E_IO',
      message: expect.stringContaining('is not valid UTF-8, so it was not changed'),
    });
    expect(readFileSync(settingsFile(paths))).toEqual(before);
  });

  it('A15: a settings.json made read-only is refused with E_IO and left byte-identical', async () => {
    const before = Buffer.from('{"log": {"text": true}}');
    const paths = storeWith(before);
    chmodSync(settingsFile(paths), 0o444);
    await expect(writeUpdateSetting(paths, 'updates.check', 'daily')).rejects.toMatchObject({
      code: 'E_IO',
      message: expect.stringContaining('is read-only (mode 444); hookpm left it as it is'),
    });
    expect(readFileSync(settingsFile(paths))).toEqual(before);
    expect(statSync(settingsFile(paths)).mode & 0o777).toBe(0o444);
  });

  it('A15: the permission bits of settings.json are kept when it is rewritten', async () => {
    const paths = storeWith(Buffer.from('{}'));
    chmodSync(settingsFile(paths), 0o600);
    await writeUpdateSetting(paths, 'updates.minimumReleaseAgeDays', '3');
    expect(statSync(settingsFile(paths)).mode & 0o777).toBe(0o600);
  });

  it('A15: a JSON object nested past what the parser takes is refused saying so, left byte-identical', async () => {
    const before = Buffer.from(`{"a":${'['.repeat(5000)}${']'.repeat(5000)}}`);
    const paths = storeWith(before);
    await expect(writeUpdateSetting(paths, 'updates.check', 'daily')).rejects.toMatchObject({
      code: 'E_IO',
      message: expect.stringContaining('is not valid JSON (line 1, column '),
    });
    expect(readFileSync(settingsFile(paths))).toEqual(before);
  });

  it('A15: a settings.json that is a symlink (a dotfiles repository) stays one: the file it leads to is changed', async () => {
    const paths = storeWith(Buffer.from('{}'));
    const dotfiles = join(tmp.dir, `dotfiles${n}`);
    mkdirSync(dotfiles);
    writeFileSync(join(dotfiles, 'settings.json'), '{"env": {"pass": ["A"]}}', { mode: 0o640 });
    const file = settingsFile(paths);
    rmSync(file);
    symlinkSync(join(dotfiles, 'settings.json'), file);
    await writeUpdateSetting(paths, 'updates.check', 'daily');
    expect(lstatSync(file).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(join(dotfiles, 'settings.json'), 'utf8'))).toEqual({
      env: { pass: ['A'] },
      updates: { check: 'daily' },
    });
    expect(statSync(join(dotfiles, 'settings.json')).mode & 0o777).toBe(0o640);
  });

  it('A15: a settings.json that is a symlink to nothing is refused with E_IO, the link left as it is', async () => {
    const paths = storeWith(Buffer.from('{}'));
    const file = settingsFile(paths);
    rmSync(file);
    symlinkSync(join(tmp.dir, 'nowhere', 'settings.json'), file);
    await expect(writeUpdateSetting(paths, 'updates.check', 'daily')).rejects.toMatchObject({
      code: 'E_IO',
      message: `${file} is a symlink that leads to nothing`,
    });
    expect(lstatSync(file).isSymbolicLink()).toBe(true);
  });

  it.each([
    ['a file', (dir: string) => writeFileSync(dir, 'x'), 'ENOTDIR'],
    ['a symlink to nothing', (dir: string) => symlinkSync(`${dir}-missing`, dir), 'ENOENT'],
  ])(
    'A15: a config directory that is %s is E_IO naming it, never E_INTERNAL',
    async (_what, make, code) => {
      n += 1;
      const paths = homeStorePaths(join(tmp.dir, `home${n}`));
      mkdirSync(join(paths.config, '..'), { recursive: true });
      make(paths.config);
      await expect(writeUpdateSetting(paths, 'updates.check', 'daily')).rejects.toMatchObject({
        code: 'E_IO',
        message: `${paths.config} is not a directory (${code}), so settings.json cannot be written there`,
      });
    },
  );
});
