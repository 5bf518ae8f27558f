import { constants } from 'node:buffer';
import { join } from 'node:path';
import { readRegularText } from '../../io/read-regular-file.js';
import type { IndexVersion } from '../../registry/indexes/index-schema.js';
import type { PackResult } from '../../publish/pack.js';

/** The publish times a registry directory's index.json records: `name@version` -> its entry's. */
export type RecordedTimes = ReadonlyMap<string, { integrity: string; publishedAt: string }>;

/**
 * docs/reference/rules/policy.md#a22: the `publishedAt` of every version the index.json already in
 * `outDir` records, with the integrity it was recorded for. No file, or one that cannot be read as
 * an index, records nothing (the build then writes what it is given): a FIFO, a device, a symlink
 * or anything but a regular file is not read (registry.md D7), since the build replaces it anyway.
 */
export async function readRecordedTimes(outDir: string): Promise<RecordedTimes> {
  const times = new Map<string, { integrity: string; publishedAt: string }>();
  let index: unknown;
  try {
    const file = join(outDir, 'index.json');
    index = JSON.parse(readRegularText(file, { maxBytes: constants.MAX_STRING_LENGTH }));
  } catch {
    return times;
  }
  const plugins = isObject(index) && isObject(index['plugins']) ? index['plugins'] : {};
  for (const [name, plugin] of Object.entries(plugins)) {
    if (!isObject(plugin) || !isObject(plugin['versions'])) continue;
    for (const [version, entry] of Object.entries(plugin['versions'])) {
      if (!isObject(entry)) continue;
      const { integrity, publishedAt } = entry;
      if (typeof integrity === 'string' && typeof publishedAt === 'string')
        times.set(`${name}@${version}`, { integrity, publishedAt });
    }
  }
  return times;
}

/**
 * A22: a rebuilt version whose bytes are those the index recorded keeps the publish time recorded
 * for it (a version is published once); anything else keeps what the build gave it.
 */
export function keepRecordedTime(result: PackResult, recorded: RecordedTimes): PackResult {
  const known = recorded.get(`${result.name}@${result.version}`);
  if (known === undefined || known.integrity !== result.integrity) return result;
  const { tarball, integrity, size, publishedAt: _given, ...rest } = result.entry;
  const entry: IndexVersion = { tarball, integrity, size, publishedAt: known.publishedAt, ...rest };
  return { ...result, entry };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
