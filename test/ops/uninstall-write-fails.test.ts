/**
 * registry.md S41, plugins.md V3: an uninstall whose state write fails (a full disk) changes
 * nothing, its transaction's mark included. A mark left behind lists the data directories the
 * uninstall meant to delete; the next collection takes it for a killed uninstall's and deletes
 * each one no record names, so a later `uninstall --keep-data` lost the data it was told to keep.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HookpmError } from '../../src/errors.js';
import { installPlugins } from '../../src/ops/install/install.js';
import { uninstallPlugins } from '../../src/ops/plugins/uninstall.js';
import type { OperationContext } from '../../src/ops/steps/context/operation-context.js';
import { stagingRoot } from '../../src/store/paths.js';
import { pluginDataDir } from '../../src/store/plugin-dirs.js';
import { failsCleanly } from '../helpers/failure.js';
import { cmd, makeWorld, pluginFiles, type World } from './plugin-fixture.js';

/** When set, a durable write of a file named `state.json` fails as on a full disk. */
const disk = vi.hoisted(() => ({ full: false }));

vi.mock('../../src/io/durable-write.js', async (original) => {
  const real = await original<typeof import('../../src/io/durable-write.js')>();
  return {
    ...real,
    writeFileDurable: (...args: Parameters<typeof real.writeFileDurable>) => {
      if (disk.full && args[0].endsWith('state.json'))
        return Promise.reject(
          new HookpmError('E_NOSPC', `no space left to write ${args[0]} (ENOSPC)`),
        );
      return real.writeFileDurable(...args);
    },
  };
});

let world: World;
let ctx: OperationContext;
beforeEach(async () => {
  world = await makeWorld();
  ctx = { paths: world.paths };
  disk.full = false;
});
afterEach(() => world.cleanup());

describe('registry.md S41, plugins.md V3: an uninstall whose state write fails', () => {
  it('leaves no mark, so a later uninstall --keep-data keeps the data', async () => {
    const dir = await world.plugin('guard', pluginFiles('guard', '1.0.0', { Stop: [cmd('x')] }));
    await installPlugins(ctx, { specs: [dir], cwd: world.dir, enable: 'yes', force: false });
    const data = pluginDataDir(world.paths, 'guard@local');
    await writeFile(join(data, 'notes'), 'kept');

    disk.full = true;
    await failsCleanly(world.paths, 'E_NOSPC', () =>
      uninstallPlugins(ctx, { names: ['guard'], keepData: false }),
    );
    expect(await readdir(stagingRoot(world.paths))).toEqual([]);

    disk.full = false;
    await uninstallPlugins(ctx, { names: ['guard'], keepData: true });
    expect(await readFile(join(data, 'notes'), 'utf8')).toBe('kept');
  });
});
