import { registryLocationIn } from '../../store/builtin-registries.js';
import { readStateFast } from '../../store/state/read-state-fast.js';
import type { PluginRecord, State } from '../../store/state/state-schema.js';
import type { StorePaths } from '../../store/store-paths.js';

/** What the state of now says of registries, for the policy's judgement of a pinned plugin. */
export interface RegistriesNow {
  /** The location registry `name` has now (the user's, else the built-in's). */
  locationOf: (name: string) => string | undefined;
  /**
   * The location the record of the pinned tree (`id` at `root`: the user's or a project's, its
   * active version or the one it replaced) kept of where it was installed from; undefined when
   * none does (a record written before it was kept, or a tree no record names any more).
   */
  keptOf: (id: string, root: string) => string | undefined;
}

/**
 * docs/reference/rules/policy.md#a12 for a linked agent's event: the location each registry has
 * in the state of now (the user's, else the built-in's), as install matched it, and the location
 * each pinned plugin's record kept; with a state that cannot be read, none (the registry's name
 * alone is matched). Loaded only under a policy with `registries.allow`, so an event under no such
 * policy never reads the state for it. Only the records of the pinned plugins are read.
 */
export async function registryLocationsNow(paths: StorePaths): Promise<RegistriesNow> {
  const state = await readStateFast(paths).catch(() => null);
  return {
    locationOf: (name) => (state === null ? undefined : registryLocationIn(state, name)),
    keptOf: (id, root) => (state === null ? undefined : keptIn(state, id, root)),
  };
}

function keptIn(state: State, id: string, root: string): string | undefined {
  const records = [state.plugins, ...Object.values(state.projects ?? {}).map((p) => p.plugins)];
  for (const plugins of records) {
    if (!Object.hasOwn(plugins, id)) continue;
    const record: PluginRecord = plugins[id]!;
    if (record.path === root) return record.registryLocation;
    if (record.previous?.path === root) return record.previous.registryLocation;
  }
  return undefined;
}
