import { compareCodeUnits } from '../../json/compare.js';
import type { StorePaths } from '../../store/store-paths.js';
import { readStateFast } from '../../store/state/read-state-fast.js';
import { hasCurrentConsent } from '../../store/state/current-consent.js';

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
}

/** `hookpm list`: the installed plugins, sorted by id. Reads the state without taking the lock. */
export async function listPlugins(paths: StorePaths): Promise<{ plugins: ListedPlugin[] }> {
  const state = await readStateFast(paths);
  const plugins = Object.values(state.plugins)
    .sort((a, b) => compareCodeUnits(a.id, b.id))
    .map((p) => ({
      id: p.id,
      name: p.name,
      registry: p.registry,
      version: p.version,
      enabled: p.enabled,
      events: [...p.events],
      source: p.source,
      integrity: p.integrity,
      installedAt: p.installedAt,
      updatedAt: p.updatedAt ?? p.installedAt,
      active: p.enabled && hasCurrentConsent(p),
      pending: p.pending?.version ?? null,
    }));
  return { plugins };
}
