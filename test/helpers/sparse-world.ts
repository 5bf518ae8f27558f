import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import type { OperationContext } from '../../src/ops/steps/context/operation-context.js';
import { resolveStorePaths } from '../../src/store/paths.js';

/**
 * A fresh temporary directory (`root`) and a store in it (`ctx`, no retries, a 20 s deadline) per
 * test, for the sparse registry's in-process operations; `closers` (servers a test started) are
 * called after it, before the directory is removed. The fields change before each test: read
 * them inside tests and hooks.
 */
export interface SparseWorld {
  root: string;
  ctx: OperationContext;
  closers: Array<() => Promise<void>>;
}

export function useSparseWorld(prefix: string): SparseWorld {
  const world = { closers: [] } as unknown as SparseWorld;
  beforeEach(async () => {
    world.root = await realpath(await mkdtemp(join(tmpdir(), prefix)));
    world.ctx = {
      paths: resolveStorePaths({ HOOKPM_HOME: join(world.root, 'hookpm') }),
      offline: false,
      defaults: {},
      fetch: { retries: 0, deadlineMs: 20_000 },
    };
  });
  afterEach(async () => {
    for (const close of world.closers.splice(0)) await close();
    await rm(world.root, { recursive: true, force: true });
  });
  return world;
}
