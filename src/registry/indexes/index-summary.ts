/**
 * The search projection of an index: one row (summary-row.ts) per plugin with what `hookpm
 * search` and `registry list` show. It is computed once, when an index enters the cache, so a
 * search neither parses nor checks the whole index again.
 */
import type { RegistryIndex } from './index-schema.js';
import { latestVersion } from '../versions/latest-version.js';
import { writeRow, type IndexSummary } from './summary-row.js';

export type { IndexSummary, PluginSummary, SummaryRow } from './summary-row.js';

/** One row per plugin that has a version, in index order. */
export function summarizeIndex(index: RegistryIndex): IndexSummary {
  const rows: IndexSummary = [];
  for (const [name, plugin] of Object.entries(index.plugins)) {
    const version = latestVersion(plugin);
    const entry = version === undefined ? undefined : plugin.versions[version];
    if (version === undefined || entry === undefined) continue;
    rows.push(
      writeRow({
        name,
        description: plugin.description ?? '',
        keywords: plugin.keywords,
        version,
        events: entry.events ?? [],
        deprecated: entry.deprecated ?? null,
      }),
    );
  }
  return rows;
}
