import { isAbsolute, join, resolve } from 'node:path';
import { HookpmError } from '../errors.js';
import { clip } from '../text/clip.js';
import type { StorePaths } from './store-paths.js';

/**
 * registry.md D1: HOOKPM_HOME of `env`, or undefined when it is unset or empty (the platform's
 * directories). A relative one is E_CONFIG: resolved against the working directory it would make
 * a store in each directory a command or an agent's event runs in (one a cloned repository could
 * hold), as a relative HOOKPM_POLICY_FILE would name another policy (policy.md A10).
 */
export function hookpmHomeOf(
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  const home = env['HOOKPM_HOME'];
  if (home === undefined || home === '') return undefined;
  if (isAbsolute(home)) return home;
  throw new HookpmError(
    'E_CONFIG',
    `HOOKPM_HOME is a relative path (${JSON.stringify(clip(home))}); it must be an absolute path`,
    {
      hint: 'Set HOOKPM_HOME to an absolute path, such as "$HOME/.hookpm" (a relative one would make a store in each directory hookpm runs in), or unset it for the platform directories.',
    },
  );
}

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
