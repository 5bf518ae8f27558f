import { sortDescending } from './version-list.js';
import type { IndexPlugin } from '../indexes/index-schema.js';
import { ownValue } from '../../json/own-value.js';

/**
 * The version `search` and `info` show as a plugin's latest: its `latest` dist-tag (parseIndex
 * guarantees the tag names one of its versions), else the highest release, else the highest
 * prerelease. Undefined only for a plugin without versions.
 */
export function latestVersion(plugin: IndexPlugin): string | undefined {
  const tagged = ownValue(plugin.distTags, 'latest');
  if (tagged !== undefined && ownValue(plugin.versions, tagged) !== undefined) return tagged;
  const sorted = sortDescending(Object.keys(plugin.versions));
  return sorted.find((v) => !v.includes('-')) ?? sorted[0];
}
