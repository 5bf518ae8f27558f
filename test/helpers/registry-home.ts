import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolveStorePaths, stateFile } from '../../src/store/paths.js';
import { ensureBuilt, runBin, type BinRun } from './built-bin.js';
import { startPluginRegistry, type ServedRegistry } from './plugin-registry.js';
import { hashStore } from './store-snapshot.js';
import { makeTempHome, type TempHome } from './temp-home.js';

/**
 * A fresh temporary home and a plugin registry `acme` on 127.0.0.1 per test, for the built
 * `bin/hookpm`. The fields change before each test: read them inside tests and hooks.
 */
export interface RegistryHome {
  home: TempHome;
  acme: ServedRegistry;
  /** Runs `hookpm ...args` in the home with its environment, writing `stdin` if given. */
  hookpm: (args: string[], stdin?: string) => Promise<BinRun>;
  /** Runs `hookpm ...args` and expects exit 0. */
  ok: (...args: string[]) => Promise<BinRun>;
  /** The store's state and trees, hashed (helpers/store-snapshot.ts). */
  store: () => Promise<Record<string, string>>;
  /** The state's record of the user-wide plugin `id`, as written (its version and range). */
  record: (id: string) => { version: string; range: string };
}

/**
 * Registers the hooks that build dist/ once, and make (then close and remove) the home, named
 * `prefix...`, and (unless `withRegistry` is false) the registry around each test. Hooks the
 * caller registers after run after these.
 */
export function useRegistryHome(prefix: string, withRegistry = true): RegistryHome {
  const ctx = {
    hookpm: (args, stdin) =>
      runBin(args, {
        env: ctx.home.env,
        cwd: ctx.home.dir,
        ...(stdin === undefined ? {} : { stdin }),
      }),
    ok: async (...args) => {
      const run = await ctx.hookpm(args);
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(0);
      return run;
    },
    store: () => hashStore(resolveStorePaths({ HOOKPM_HOME: ctx.home.env.HOOKPM_HOME })),
    record: (id) => {
      const file = stateFile(resolveStorePaths({ HOOKPM_HOME: ctx.home.env.HOOKPM_HOME }));
      const state = JSON.parse(readFileSync(file, 'utf8')) as {
        plugins: Record<string, { version: string; range: string }>;
      };
      return state.plugins[id]!;
    },
  } as RegistryHome;
  beforeAll(() => ensureBuilt(), 120_000);
  beforeEach(async () => {
    ctx.home = await makeTempHome(prefix);
    if (withRegistry) ctx.acme = await startPluginRegistry('acme');
  });
  afterEach(async () => {
    if (withRegistry) await ctx.acme.close();
    await ctx.home.cleanup();
  });
  return ctx;
}

/**
 * Registers the hooks that build dist/ and make one temporary home, named `prefix...`, for the
 * whole file (removed after all); the returned object takes its fields before the first test.
 */
export function useBuiltHome(prefix: string): TempHome {
  const home = {} as TempHome;
  beforeAll(async () => {
    ensureBuilt();
    Object.assign(home, await makeTempHome(prefix));
  }, 120_000);
  afterAll(() => home.cleanup());
  return home;
}
