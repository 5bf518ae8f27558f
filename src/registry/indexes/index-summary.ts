/**
 * The search projection of an index: one row (summary-row.ts) per plugin with what `hookpm
 * search` and `registry list` show. It is computed once, when an index enters the cache, so a
 * search neither parses nor checks the whole index again.
 */
import type { RegistryIndex } from './index-schema.js';
import { latestVersion } from '../versions/latest-version.js';
import { writeRow, type IndexSummary, type PluginSummary } from './summary-row.js';

export type { IndexSummary, PluginSummary, SummaryRow } from './summary-row.js';

/** One row per plugin that has a version, in index order. */
export function summarizeIndex(index: RegistryIndex): IndexSummary {
  const rows: IndexSummary = [];
  for (const [name, plugin] of Object.entries(index.plugins)) {
    const summary = summarizePlugin(name, plugin);
    if (summary !== null) rows.push(writeRow(summary));
  }
  return rows;
}

/** What search shows of a plugin: its latest version's entry; null for a plugin without versions. */
export function summarizePlugin(
  name: string,
  plugin: RegistryIndex['plugins'][string],
): PluginSummary | null {
  const version = latestVersion(plugin);
  const entry = version === undefined ? undefined : plugin.versions[version];
  if (version === undefined || entry === undefined) return null;
  return {
    name,
    description: plugin.description ?? '',
    keywords: plugin.keywords,
    version,
    events: entry.events ?? [],
    deprecated: entry.deprecated ?? null,
  };
}
