import { HookpmError } from '../../errors.js';
import type { SurfaceEntry } from '../../plugin/surface.js';
import type { PluginRecord, State } from '../../store/state/state-schema.js';
import { inspectPluginDir } from '../install/inspect.js';
import type { ReviewInput } from '../review/report.js';
import { hasCurrentConsent } from '../review/consent.js';
import { ownValue } from '../../json/own-value.js';

/**
 * The installed plugin a user names: an id (`name@registry`) or a bare name that exactly one
 * installed plugin has. E_NOT_INSTALLED when none has it, E_AMBIGUOUS when several registries do.
 */
export function findInstalled(state: State, nameOrId: string): PluginRecord {
  const exact = ownValue(state.plugins, nameOrId);
  if (exact !== undefined) return exact;
  const named = Object.values(state.plugins).filter((p) => p.name === nameOrId);
  if (named.length === 1) return named[0] as PluginRecord;
  if (named.length > 1) {
    const ids = named.map((p) => p.id).sort();
    throw new HookpmError(
      'E_AMBIGUOUS',
      `${nameOrId} names ${ids.length} installed plugins: ${ids.join(', ')}`,
      {
        name: nameOrId,
        ids,
        hint: `Name one by its id, for example \`${ids[0]}\`.`,
      },
    );
  }
  throw new HookpmError(
    'E_NOT_INSTALLED',
    `no installed plugin is named ${JSON.stringify(nameOrId)}`,
    {
      name: nameOrId,
      hint: 'Run `hookpm list` to see the installed plugins.',
    },
  );
}

/**
 * Q5: the entries of the surface the user consented to, read from the active installed tree when
 * that tree's surface is the consented one; null when there is no consent or it cannot be read.
 */
async function readConsentedEntries(record: PluginRecord): Promise<SurfaceEntry[] | null> {
  if (record.consent === null || !hasCurrentConsent(record)) return null;
  try {
    const active = await inspectPluginDir(record.path, {
      fallbackName: record.name,
      registry: record.registry,
    });
    return active.surface.surfaceHash === record.consent.surfaceHash
      ? active.surface.entries
      : null;
  } catch {
    return null;
  }
}

/**
 * What a review compares against (Q4, Q5): the consent and the installed versions of the plugin
 * of the same id, or nothing when none is installed.
 */
export async function readConsentBaseline(
  record: PluginRecord | undefined,
): Promise<Pick<ReviewInput, 'consentedHash' | 'consentedEntries' | 'installed'>> {
  if (record === undefined) return { consentedHash: null, consentedEntries: null, installed: null };
  return {
    consentedHash: record.consent?.surfaceHash ?? null,
    consentedEntries: await readConsentedEntries(record),
    installed: {
      version: record.version,
      enabled: record.enabled,
      pending: record.pending?.version ?? null,
    },
  };
}
