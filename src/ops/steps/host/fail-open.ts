import type { FailClosed } from '../../../hooks/fail-closed-entry.js';
import type { UserSettings } from '../../../store/user-settings.js';

/**
 * docs/reference/rules/engine.md#b6: the entries settings.json's `failOpen` names (every one, with
 * `true`) marked `open`; an entry the administrator's policy `enforced` never is. The entries
 * themselves when nothing fails open.
 */
export function withFailOpen(
  entries: readonly FailClosed[],
  settings: UserSettings | null,
): readonly FailClosed[] {
  const open = settings?.failOpen;
  if (entries.length === 0 || open === undefined) return entries;
  if (!open.all && open.plugins.length === 0) return entries;
  return entries.map((entry) =>
    entry.enforced !== true &&
    (open.all || (entry.plugin !== null && open.plugins.includes(entry.plugin)))
      ? { ...entry, open: true }
      : entry,
  );
}
