import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { ensureBuilt } from './built-bin.js';
import { startPluginRegistry, type ServedRegistry } from './plugin-registry.js';
import { makeTempHome, type TempHome } from './temp-home.js';

/**
 * A registry `acme` on 127.0.0.1 for the whole file, and for each test a fresh temporary home and a
 * project: `<work>/repo`, holding a `.git` folder. The fields change before each test: read them
 * inside tests and hooks.
 */
export interface ProjectWorld {
  acme: ServedRegistry;
  home: TempHome;
  work: string;
  project: string;
}

/**
 * Registers the hooks that build dist/ and start the registry once (`publish` fills it), and make
 * (then remove) the home and the project, named `prefix...`, around each test.
 */
export function useProjectWorld(
  prefix: string,
  publish: (acme: ServedRegistry) => Promise<void>,
): ProjectWorld {
  const world = {} as ProjectWorld;
  beforeAll(async () => {
    ensureBuilt();
    world.acme = await startPluginRegistry('acme');
    await publish(world.acme);
  }, 120_000);
  afterAll(() => world.acme.close());
  beforeEach(async () => {
    world.home = await makeTempHome(prefix);
    world.work = await mkdtemp(join(tmpdir(), prefix));
    world.project = join(world.work, 'repo');
    await mkdir(join(world.project, '.git'), { recursive: true });
  });
  afterEach(async () => {
    await world.home.cleanup();
    await rm(world.work, { recursive: true, force: true });
  });
  return world;
}
