import { afterEach, beforeEach } from 'vitest';
import { installPlugins } from '../../src/ops/install/install.js';
import type { InstallOptions } from '../../src/ops/steps/transaction/options.js';
import type { OperationContext } from '../../src/ops/steps/context/operation-context.js';
import { updatePlugins, type UpdateOptions } from '../../src/ops/plugins/update.js';
import { makeWorld, type World } from '../ops/plugin-fixture.js';
import { startPluginRegistry, type ServedRegistry } from './plugin-registry.js';

/**
 * A fresh world (a temporary store and project, ops/plugin-fixture.ts) and a plugin registry
 * `acme` on 127.0.0.1 per test, for the in-process operations. The fields change before each
 * test: read them inside tests and hooks.
 */
export interface RegistryWorld {
  world: World;
  acme: ServedRegistry;
}

/**
 * Registers the hooks that make the world and the registry before each test, and close and remove
 * them after. Hooks the caller registers after this one run after these.
 */
export function useRegistryWorld(): RegistryWorld {
  const fx = {} as RegistryWorld;
  beforeEach(async () => {
    fx.world = await makeWorld();
    fx.acme = await startPluginRegistry('acme');
  });
  afterEach(async () => {
    await fx.acme.close();
    await fx.world.cleanup();
  });
  return fx;
}

/** The `defaults` of a operation context with one index registry, `acme` at `location`. */
export function acmeAt(location: string): OperationContext['defaults'] {
  return { acme: { location, kind: 'index', addedAt: '2026-11-30T00:00:00.000Z' } };
}

/** `installPlugins` of `specs` from `cwd`: enabled (consent yes), no force, no dry run; then `over`. */
export function installSpecs(
  ctx: OperationContext,
  cwd: string,
  specs: string[],
  over: Partial<InstallOptions> = {},
): ReturnType<typeof installPlugins> {
  return installPlugins(ctx, { specs, cwd, enable: 'yes', force: false, dryRun: false, ...over });
}

/** `updatePlugins` from `cwd` (all plugins unless `names`): asking, no dry run, no downgrade, no prerelease. */
export function updateNames(
  ctx: OperationContext,
  cwd: string,
  over: Partial<UpdateOptions> = {},
): ReturnType<typeof updatePlugins> {
  return updatePlugins(ctx, {
    names: [],
    cwd,
    enable: 'ask',
    dryRun: false,
    allowDowngrade: false,
    includePrerelease: false,
    ...over,
  });
}
