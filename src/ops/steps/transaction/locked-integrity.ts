import { ownValue } from '../../../json/own-value.js';
import type { State } from '../../../store/state/state-schema.js';
import { assertKnownIntegrity, assertRecordIntegrity } from '../staging/pick.js';

/**
 * V3 for a project plugin (docs/reference/rules/registry.md#j1): the integrity `name@registry`
 * `version` is locked or staged with must be the one this user installed that version with before,
 * user-wide (its record, its pending update, or the integrity the state keeps after an uninstall)
 * or in any project; E_INTEGRITY_CHANGED otherwise, and nothing changes. A project file cannot
 * accept a changed integrity: there is no `--force-integrity-change` for a project.
 */
export function assertLockedIntegrity(
  state: State,
  locked: { name: string; registry: string; version: string; integrity: string },
): void {
  const { name, registry, version, integrity } = locked;
  const picked = { name, registry, version, entry: { tarball: '', integrity } };
  assertKnownIntegrity(state, picked);
  const id = `${name}@${registry}`;
  for (const project of Object.values(state.projects ?? {})) {
    const record = ownValue(project.plugins, id);
    if (record !== undefined) assertRecordIntegrity(record, picked);
  }
}
