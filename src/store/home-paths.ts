import { join, resolve } from 'node:path';
import type { StorePaths } from './store-paths.js';

/**
 * registry.md D1 with HOOKPM_HOME set: `<home>/{config,data,cache}`. Kept apart from paths.ts so a
 * command that only needs this (`hookpm list`) does not load env-paths.
 */
export function homeStorePaths(home: string): StorePaths {
  const root = resolve(home);
  return { config: join(root, 'config'), data: join(root, 'data'), cache: join(root, 'cache') };
}

/** D2: the one state document. */
export function stateFile(paths: StorePaths): string {
  return join(paths.data, 'state.json');
}
