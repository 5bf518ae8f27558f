import type { PinnedPlugin } from '../../store/session-pin-schema.js';
import type { StorePaths } from '../../store/store-paths.js';
import { hasCurrentConsent } from '../../store/state/current-consent.js';
import { readStateFast } from '../../store/state/read-state-fast.js';

/**
 * engine.md B4 for a session pinned before a plugin's tree changed: whether one of `tampered` (the
 * pinned plugins a tamper check just left out) was restored since, the way its fail-closed reason
 * says (`hookpm install --force`): the state now records the plugin, enabled and consented, in
 * another folder with the files fingerprint it was pinned with, so the same bytes it was consented
 * with are installed again. The caller then pins the session afresh, as for a pin holding a plugin
 * failing closed, and the restored plugin runs at this event. Never throws: a state that cannot be
 * read restores nothing.
 */
export async function pinnedPluginRestored(
  paths: StorePaths,
  tampered: readonly PinnedPlugin[],
): Promise<boolean> {
  if (tampered.length === 0) return false;
  try {
    const state = await readStateFast(paths);
    const records = [
      ...Object.values(state.plugins),
      ...Object.values(state.projects ?? {}).flatMap((project) => Object.values(project.plugins)),
    ];
    return tampered.some((pinned) =>
      records.some(
        (record) =>
          record.id === pinned.id &&
          record.path !== pinned.root &&
          record.fingerprint === pinned.fingerprint &&
          record.enabled &&
          hasCurrentConsent(record),
      ),
    );
  } catch {
    return false;
  }
}
