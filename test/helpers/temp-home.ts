import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { resolveStorePaths } from '../../src/store/paths.js';
import type { StorePaths } from '../../src/store/store-paths.js';

/** A temporary directory used as HOME and HOOKPM_HOME; `env` is what child processes get. */
export interface TempHome {
  dir: string;
  env: Record<string, string>;
  cleanup: () => Promise<void>;
}

export async function makeTempHome(prefix = 'hookpm-home-'): Promise<TempHome> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  // FORCE_COLOR (set by some CI systems) would colour the text output the tests read.
  // NODE_EXTRA_CA_CERTS (set by some sandboxes for their proxy) makes every Node process the
  // tests start parse a CA bundle (about 50 ms of CPU each); these children talk to loopback
  // servers only (plain HTTP, or TLS with the test's own certificate), so they go without it,
  // and without that proxy (registry.md N13: hookpm would send them through it).
  const {
    FORCE_COLOR: _colour,
    NODE_EXTRA_CA_CERTS: _certs,
    HTTPS_PROXY: _https,
    https_proxy: _httpsLower,
    HTTP_PROXY: _http,
    http_proxy: _httpLower,
    ...inherited
  } = process.env as Record<string, string>;
  const env = {
    ...inherited,
    HOME: dir,
    HOOKPM_HOME: join(dir, 'hookpm'),
  };
  return { dir, env, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** A temporary home per test and the store paths its environment resolves to. */
export interface TempStore {
  home: TempHome;
  paths: StorePaths;
}

/** Registers the hooks that make a temporary home before each test and remove it after. */
export function useTempStore(prefix?: string): TempStore {
  const store = {} as TempStore;
  beforeEach(async () => {
    store.home = await makeTempHome(prefix);
    store.paths = resolveStorePaths(store.home.env);
  });
  afterEach(() => store.home.cleanup());
  return store;
}
