import type { Capabilities } from '../../../plugin/capabilities.js';
import type { SurfaceEntry } from '../../../plugin/surface.js';
import type { PluginRecord } from '../../../store/state/state-schema.js';
import { readInstalledFiles } from '../../../store/installed-files.js';
import type { StorePaths } from '../../../store/store-paths.js';
import { inspectPluginDir, type InspectedPlugin } from '../staging/inspect.js';
import type { ConsentedTree } from './code-review.js';
import type { ReviewInput } from '../consent/report.js';
import { hasCurrentConsent } from '../../../store/state/current-consent.js';

/**
 * Q5 and the files rule (docs/guides/installing-plugins.md#consent): the surface entries and the
 * tree the user consented to, read from the active installed tree when that tree's surface is the
 * consented one. Entries null when there is no consent or they cannot be read; the tree null
 * without consent (code-review.ts diffCode checks it against its fingerprint, Q6).
 */
async function readConsented(
  record: PluginRecord,
  paths: StorePaths | undefined,
): Promise<{
  entries: SurfaceEntry[] | null;
  capabilities: Capabilities | null;
  tree: ConsentedTree | null;
}> {
  if (record.consent === null) return { entries: null, capabilities: null, tree: null };
  let active: InspectedPlugin | null = null;
  if (hasCurrentConsent(record)) {
    try {
      active = await inspectPluginDir(record.path, {
        fallbackName: record.name,
        registry: record.registry,
      });
    } catch {
      active = null;
    }
  }
  const consented = active?.surface.surfaceHash === record.consent.surfaceHash ? active : null;
  return {
    entries: consented?.surface.entries ?? null,
    capabilities: consented?.surface.capabilities ?? null,
    tree: {
      root: record.path,
      fingerprint: record.fingerprint,
      of: consented,
      installed: paths === undefined ? null : readInstalledFiles(paths, record.fingerprint),
    },
  };
}

/** What a review compares against (Q4, Q5): the installed plugin of the same id, if any. */
export interface ConsentBaseline extends Pick<
  ReviewInput,
  | 'consentedHash'
  | 'consentedEntries'
  | 'consentedCapabilities'
  | 'confine'
  | 'installed'
  | 'disabledHooks'
> {
  consentedTree: ConsentedTree | null;
}

/**
 * What a review compares against (Q4, Q5): the consent and the installed versions of the plugin
 * of the same id, or nothing when none is installed.
 */
export async function readConsentBaseline(
  record: PluginRecord | undefined,
  paths?: StorePaths,
): Promise<ConsentBaseline> {
  if (record === undefined)
    return {
      consentedHash: null,
      consentedEntries: null,
      installed: null,
      disabledHooks: [],
      consentedTree: null,
    };
  const consented = await readConsented(record, paths);
  return {
    consentedHash: record.consent?.surfaceHash ?? null,
    consentedEntries: consented.entries,
    consentedCapabilities: consented.capabilities,
    confine: record.consent?.confine,
    installed: {
      version: record.version,
      enabled: record.enabled,
      pending: record.pending?.version ?? null,
    },
    disabledHooks: record.disabledHooks ?? [],
    consentedTree: consented.tree,
  };
}
