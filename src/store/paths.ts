import envPaths from 'env-paths';
import { join } from 'node:path';
import { homeStorePaths, hookpmHomeOf } from './home-paths.js';
import type { StorePaths } from './store-paths.js';

/**
 * D1: `$HOOKPM_HOME/{config,data,cache}` when HOOKPM_HOME is set (the CLI maps `--home` to it),
 * otherwise the platform's directories for `hookpm` (env-paths, no suffix). env-paths reads the
 * real process environment and home directory, so tests always set HOOKPM_HOME. A relative
 * HOOKPM_HOME is E_CONFIG (hookpmHomeOf): a caller resolves a relative `--home` first.
 */
export function resolveStorePaths(env: Record<string, string | undefined>): StorePaths {
  const home = hookpmHomeOf(env);
  if (home !== undefined) return homeStorePaths(home);
  const platform = envPaths('hookpm', { suffix: '' });
  return { config: platform.config, data: platform.data, cache: platform.cache };
}

export { stateFile } from './home-paths.js';

/** D3: the cross-process lock of the store. */
export function lockFile(paths: StorePaths): string {
  return join(paths.data, '.lock');
}

/** D4: installed trees, `<plugins>/<sanitized id>/<version>-<hash>`. */
export function pluginsDir(paths: StorePaths): string {
  return join(paths.data, 'plugins');
}

/** A3/D4: staging, on the same file system as the installed trees; owned by the lock holder. */
export function stagingRoot(paths: StorePaths): string {
  return join(paths.data, '.staging');
}

/** plugins.md V3: the root of the per-plugin data directories. */
export function pluginDataRoot(paths: StorePaths): string {
  return join(paths.data, 'plugin-data');
}

/** D5: downloaded tarballs, cached by integrity. */
export function tarballCacheDir(paths: StorePaths): string {
  return join(paths.cache, 'tarballs');
}

/** N4: cached registry indexes with their ETags. */
export function indexCacheDir(paths: StorePaths): string {
  return join(paths.cache, 'indexes');
}

/**
 * Q6: the content hashes of installed files, reused while their lstat is unchanged, one shard per
 * tree (store/fingerprint-shards.ts fingerprintShardFile).
 */
export function fingerprintCacheDir(paths: StorePaths): string {
  return join(paths.cache, 'fingerprints');
}

/** Q6: the parsed documents of enabled plugins, reused while their tree is unchanged. */
export function pluginDocumentsCacheFile(paths: StorePaths): string {
  return join(paths.cache, 'plugin-documents.json');
}
