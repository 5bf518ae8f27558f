import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveStorePaths } from '../../src/store/paths.js';
import type { StorePaths } from '../../src/store/store-paths.js';
import { writeTree, type TreeFile } from '../store/plugin-tree.js';

/** A temporary world: a store (HOOKPM_HOME), a user home and a place for plugin directories. */
export interface World {
  dir: string;
  paths: StorePaths;
  home: string;
  /** Writes a plugin directory `<dir>/src/<name>` and returns its absolute path. */
  plugin: (name: string, files: Record<string, TreeFile>) => Promise<string>;
  cleanup: () => Promise<void>;
}

export async function makeWorld(): Promise<World> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'hookpm-ops-')));
  return {
    dir,
    paths: resolveStorePaths({ HOOKPM_HOME: join(dir, 'hookpm') }),
    home: join(dir, 'home'),
    plugin: async (name, files) => {
      const root = join(dir, 'src', name);
      await writeTree(root, files);
      return root;
    },
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

/** A manifest and one hooks document with a handler per event. */
export function pluginFiles(
  name: string,
  version: string | null,
  events: Record<string, unknown[]>,
): Record<string, TreeFile> {
  const hooks: Record<string, unknown> = {};
  for (const [event, handlers] of Object.entries(events)) hooks[event] = [{ hooks: handlers }];
  return {
    'plugin.json': { json: version === null ? { name } : { name, version } },
    'hooks/hooks.json': { json: { hooks } },
  };
}

export const cmd = (command: string): Record<string, unknown> => ({ type: 'command', command });
