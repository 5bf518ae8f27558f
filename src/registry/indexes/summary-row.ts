/**
 * The row format of an index summary (index-summary.ts). A row is one string, its fields joined by
 * U+001F and list items by U+001E: 10,000 strings parse several times faster than 10,000 nested
 * arrays or objects, and a search can rule a row out with one case-insensitive test of the whole
 * string before splitting it (bench/search.bench.mjs). Separator characters inside
 * plugin-supplied text are stored as U+FFFD. Kept apart from index-summary.ts so that a search
 * does not load semver.
 */

/** `name␟description␟keywords␟version␟events␟deprecated`, lists joined by U+001E, '' for none. */
export type SummaryRow = string;

/** One row per plugin that has a version, in index order. */
export type IndexSummary = SummaryRow[];

export interface PluginSummary {
  name: string;
  description: string;
  keywords: string[];
  /** The latest version (latest-version.ts). */
  version: string;
  /** The events of that version. */
  events: string[];
  deprecated: string | null;
}

const FIELD = '\u001f';
const ITEM = '\u001e';
const SEPARATORS = /[\u001e\u001f]/g;

export function writeRow(plugin: PluginSummary): SummaryRow {
  return [
    plugin.name,
    clean(plugin.description),
    plugin.keywords.map(clean).join(ITEM),
    plugin.version,
    plugin.events.map(clean).join(ITEM),
    clean(plugin.deprecated ?? ''),
  ].join(FIELD);
}

/** The fields of a row; a row of the wrong shape (a damaged cache) gives null. */
export function readRow(row: SummaryRow): PluginSummary | null {
  const f = row.split(FIELD);
  if (f.length !== 6) return null;
  const [name, description, keywords, version, events, deprecated] = f as [
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  return {
    name,
    description,
    keywords: keywords === '' ? [] : keywords.split(ITEM),
    version,
    events: events === '' ? [] : events.split(ITEM),
    deprecated: deprecated === '' ? null : deprecated,
  };
}

function clean(text: string): string {
  return text.replace(SEPARATORS, '\ufffd');
}
