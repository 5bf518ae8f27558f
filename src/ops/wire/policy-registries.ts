import { registryLocationIn } from '../../store/builtin-registries.js';
import { readStateFast } from '../../store/state/read-state-fast.js';
import type { StorePaths } from '../../store/store-paths.js';

/**
 * docs/reference/rules/policy.md#a12 for a linked agent's event: the location each registry has
 * in the state of now (the user's, else the built-in's), as install matched it; with a state that
 * cannot be read, none (the registry's name alone is matched). Loaded only under a policy with
 * `registries.allow`, so an event under no such policy never reads the state for it.
 */
export async function registryLocationsNow(
  paths: StorePaths,
): Promise<(name: string) => string | undefined> {
  const state = await readStateFast(paths).catch(() => null);
  return (name) => (state === null ? undefined : registryLocationIn(state, name));
}
