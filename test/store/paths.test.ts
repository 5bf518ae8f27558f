import { readdir, stat, writeFile } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import envPaths from 'env-paths';
import { describe, expect, it } from 'vitest';
import { ensureDataDir, removeDataDir } from '../../src/store/data-dir.js';
import {
  fingerprintCacheDir,
  indexCacheDir,
  lockFile,
  pluginDataRoot,
  pluginDocumentsCacheFile,
  resolveStorePaths,
  stagingRoot,
  stateFile,
  tarballCacheDir,
} from '../../src/store/paths.js';
import { pluginDataDir, pluginDataDirs, pluginVersionsDir } from '../../src/store/plugin-dirs.js';
import { sanitizePluginId } from '../../src/plugin/data-id.js';
import { useTempStore } from '../helpers/temp-home.js';

const store = useTempStore();

describe('resolveStorePaths', () => {
  it('D1: with HOOKPM_HOME set, config, data and cache are its subdirectories', () => {
    expect(resolveStorePaths({ HOOKPM_HOME: '/srv/hk' })).toEqual({
      config: '/srv/hk/config',
      data: '/srv/hk/data',
      cache: '/srv/hk/cache',
    });
  });

  it('D1: a relative HOOKPM_HOME is E_CONFIG naming the variable, never a store in the working directory', () => {
    for (const home of ['rel/home', 'store', './store', '~/hookpm'])
      expect(() => resolveStorePaths({ HOOKPM_HOME: home })).toThrow(
        expect.objectContaining({
          code: 'E_CONFIG',
          message: `HOOKPM_HOME is a relative path (${JSON.stringify(home)}); it must be an absolute path`,
        }),
      );
  });

  it('D1: without HOOKPM_HOME (or with it empty) the platform directories for hookpm are used, without a suffix', () => {
    const platform = envPaths('hookpm', { suffix: '' });
    const expected = { config: platform.config, data: platform.data, cache: platform.cache };
    expect(resolveStorePaths({})).toEqual(expected);
    expect(resolveStorePaths({ HOOKPM_HOME: '' })).toEqual(expected);
    expect(expected.data.endsWith(`${sep}hookpm`)).toBe(true);
  });

  it('D1: state, lock, trees, staging and plugin data live in data; tarballs and indexes in cache', () => {
    expect(stateFile(store.paths)).toBe(join(store.paths.data, 'state.json'));
    expect(lockFile(store.paths)).toBe(join(store.paths.data, '.lock'));
    expect(pluginVersionsDir(store.paths, 'a.b@r')).toBe(
      join(store.paths.data, 'plugins', sanitizePluginId('a.b@r')),
    );
    expect(stagingRoot(store.paths)).toBe(join(store.paths.data, '.staging'));
    expect(pluginDataDir(store.paths, 'a.b@r')).toBe(
      join(store.paths.data, 'plugin-data', sanitizePluginId('a.b@r')),
    );
    expect(tarballCacheDir(store.paths)).toBe(join(store.paths.cache, 'tarballs'));
    expect(indexCacheDir(store.paths)).toBe(join(store.paths.cache, 'indexes'));
    expect(fingerprintCacheDir(store.paths)).toBe(join(store.paths.cache, 'fingerprints'));
    expect(pluginDocumentsCacheFile(store.paths)).toBe(
      join(store.paths.cache, 'plugin-documents.json'),
    );
  });

  it('V3: pluginDataDirs names the same directories as pluginDataDir', () => {
    const dataDir = pluginDataDirs(store.paths);
    for (const id of ['a.b@r', 'guard@examples', 'ünï@local', '@scope/x@npm'])
      expect(dataDir(id)).toBe(pluginDataDir(store.paths, id));
  });
});

describe('plugin data directories', () => {
  it('V3: ensureDataDir creates <data>/plugin-data/<sanitized id>, keeps its files when called again', async () => {
    const dir = await ensureDataDir(store.paths, 'guard@examples');
    expect(dir).toBe(pluginDataDir(store.paths, 'guard@examples'));
    expect((await stat(dir)).isDirectory()).toBe(true);
    await writeFile(join(dir, 'memo.txt'), 'kept');
    expect(await ensureDataDir(store.paths, 'guard@examples')).toBe(dir);
    expect(await readdir(dir)).toEqual(['memo.txt']);
  });

  it('V3: a.b@r and a-b@r get different data directories', async () => {
    const a = await ensureDataDir(store.paths, 'a.b@r');
    const b = await ensureDataDir(store.paths, 'a-b@r');
    expect(a).not.toBe(b);
    expect((await readdir(pluginDataRoot(store.paths))).length).toBe(2);
  });

  it("V3: removeDataDir deletes only that plugin's directory, and an absent one is fine", async () => {
    const a = await ensureDataDir(store.paths, 'a.b@r');
    const b = await ensureDataDir(store.paths, 'a-b@r');
    await writeFile(join(a, 'x'), 'x');
    await removeDataDir(store.paths, 'a.b@r');
    await removeDataDir(store.paths, 'a.b@r');
    expect(await readdir(pluginDataRoot(store.paths))).toEqual([b.split(sep).pop()]);
  });
});
