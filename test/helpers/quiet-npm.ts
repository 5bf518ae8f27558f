import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { ensureBuilt, runBin, type BinRun } from './built-bin.js';
import { QUIET_PACKAGE, startFakeNpmRegistry, type FakeNpmRegistry } from './fake-npm-registry.js';
import { makeTempHome, type TempHome } from './temp-home.js';

/** The fake npm registry serving QUIET_PACKAGE for a whole file, and a fresh home per test. */
export interface QuietNpm {
  npm: FakeNpmRegistry;
  home: TempHome;
  /** The built CLI in the test's home, its npm registry the fake one. */
  hookpm: (...args: string[]) => Promise<BinRun>;
}

/**
 * Registers the hooks of a test file that installs `hookpm-plugin-quiet` from the fake npm
 * registry (built CLI, one registry for the file, a temporary home per test named `prefix`). The
 * fields are set once the hooks have run: read them inside tests.
 */
export function useQuietNpm(prefix: string): QuietNpm {
  const world = {} as QuietNpm;
  world.hookpm = (...args) =>
    runBin(args, {
      env: { ...world.home.env, HOOKPM_NPM_REGISTRY: world.npm.url },
      cwd: world.home.dir,
    });
  beforeAll(async () => {
    ensureBuilt();
    world.npm = await startFakeNpmRegistry({ 'hookpm-plugin-quiet': QUIET_PACKAGE });
  });
  afterAll(() => world.npm.close());
  beforeEach(async () => {
    world.home = await makeTempHome(prefix);
  });
  afterEach(() => world.home.cleanup());
  return world;
}
