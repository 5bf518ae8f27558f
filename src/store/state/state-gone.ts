import { existsSync, readdirSync } from 'node:fs';
import { HookpmError } from '../../errors.js';
import { pluginsDir, stateFile } from '../paths.js';
import type { StorePaths } from '../store-paths.js';
import type { State } from './state-schema.js';

/**
 * docs/reference/rules/engine.md#b3 for a state file that is gone: a store without one is a fresh
 * home only while no plugin is installed in it. When `state` is the empty state readStateFast
 * gives for a missing file and installed trees remain, hookpm cannot know which of them would run
 * (the file was deleted, or lost with a disk), so this throws E_STATE_CORRUPT naming the file and
 * how to recover, for the runtime to fail closed on. Costs a stat and a directory read only for an
 * empty state.
 */
export function requireStateOfTrees(paths: StorePaths, state: State): void {
  if (Object.keys(state.plugins).length > 0 || state.projects !== undefined) return;
  const installed = treesWithoutState(paths);
  if (installed === 0) return;
  const file = stateFile(paths);
  throw new HookpmError(
    'E_STATE_CORRUPT',
    `the state file ${file} is missing while ${installed} plugin(s) are installed in the store`,
    {
      file,
      hint: 'Run `hookpm doctor` to see what is installed; reinstall the plugins you want (their trees without a state are collected as leftovers).',
    },
  );
}

/** How many plugins have installed trees in a store whose state file is missing; 0 when it is not. */
export function treesWithoutState(paths: StorePaths): number {
  if (existsSync(stateFile(paths))) return 0;
  try {
    return readdirSync(pluginsDir(paths)).length;
  } catch {
    return 0;
  }
}
