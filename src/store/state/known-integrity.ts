import { ownValue } from '../../json/own-value.js';
import type { State } from './state-schema.js';

/** V3: the integrity `id` was installed with at `version`, as the state keeps it (after an uninstall too). */
export function knownIntegrityOf(state: State, id: string, version: string): string | undefined {
  const versions =
    state.knownIntegrity === undefined ? undefined : ownValue(state.knownIntegrity, id);
  return versions === undefined ? undefined : ownValue(versions, version);
}

/**
 * Records the integrity `id` `version` is installed with now (replacing one the user accepted a
 * change of); an unknown ('') integrity records nothing.
 */
export function rememberIntegrity(
  draft: State,
  id: string,
  version: string,
  integrity: string,
): void {
  if (integrity === '') return;
  const known = (draft.knownIntegrity ??= {});
  const versions = ownValue(known, id) ?? {};
  versions[version] = integrity;
  known[id] = versions;
}
