import type { PluginRecord } from './state-schema.js';

/**
 * plugins.md Q4: the consent record holds the plugin's current surfaceHash, so its hooks may run.
 * The one place the rule is written: the runtime (store/runnable-plugins.ts) and every command
 * that shows or changes consent read it here.
 */
export function hasCurrentConsent(record: Pick<PluginRecord, 'consent' | 'surfaceHash'>): boolean {
  return record.consent !== null && record.consent.surfaceHash === record.surfaceHash;
}
