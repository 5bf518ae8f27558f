import { hasCurrentConsent } from '../../store/state/current-consent.js';
import type { PluginRecord } from '../../store/state/state-schema.js';
import { verdictOf } from '../../store/tree-verdicts.js';
import type { TreeVerdicts } from '../../store/tree-verdicts.js';

/** One entry of `hookpm list --json` (docs/reference/rules/cli.md#json-shapes). */
export interface ListedPlugin {
  id: string;
  name: string;
  registry: string;
  version: string;
  enabled: boolean;
  events: string[];
  source: string;
  integrity: string;
  /** When it was first installed (ISO 8601). */
  installedAt: string;
  /** When its version or files last changed; installedAt for a state that predates it. */
  updatedAt: string;
  /** Q4: enabled and consented to its current surface, so its hooks run. */
  active: boolean;
  /** Q5: the version installed and waiting for consent, if any. */
  pending: string | null;
  /**
   * Q6: its installed tree is missing or no longer has its recorded fingerprint, so it is left
   * out of every snapshot whatever `active` says; `hookpm install --force <source>` restores it.
   * S32: as the last check found it (`checkedAt`), or as checked now with `verify`.
   */
  tampered: boolean;
  /**
   * S32: when its tree was last known to be as `tampered` says (ISO 8601): the check that found
   * it so (at an event that was to run it, `doctor`, `review`, `enable`, `list --verify`), or its
   * install or update when no check since found otherwise.
   */
  checkedAt: string;
}

/**
 * The entry `list` shows for the installed plugin `p`, user-wide (`ofUser`) or a project's, with
 * its tamper status as `verdicts` record it (S32). It depends on these alone: registry.md S33
 * keeps it for as long as the bytes of `p`'s state entry and the verdicts file are unchanged.
 */
export function listedPlugin(
  p: PluginRecord,
  verdicts: TreeVerdicts,
  ofUser: boolean,
): ListedPlugin {
  const updatedAt = p.updatedAt ?? p.installedAt;
  const since = Date.parse(updatedAt) || 0;
  const verdict =
    p.linked === true
      ? { tampered: false, checkedAt: since }
      : verdictOf(verdicts, p.path, since, ofUser);
  return {
    id: p.id,
    name: p.name,
    registry: p.registry,
    version: p.version,
    enabled: p.enabled,
    events: p.events,
    source: p.source,
    integrity: p.integrity,
    installedAt: p.installedAt,
    updatedAt,
    active: p.enabled && hasCurrentConsent(p),
    pending: p.pending?.version ?? null,
    tampered: verdict.tampered,
    checkedAt: new Date(verdict.checkedAt).toISOString(),
  };
}
