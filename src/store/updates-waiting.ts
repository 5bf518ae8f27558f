import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { writeFileDurable } from '../io/durable-write.js';
import { readRegularText } from '../io/read-regular-file.js';
import { isPlainObject } from '../json/describe-value.js';
import type { StorePaths } from './store-paths.js';

/** One installed plugin with a newer version in its range, as the last check found it. */
export interface WaitingUpdate {
  id: string;
  installed: string;
  available: string;
}

/** `<cache>/updates-waiting.json`: what `hookpm update --check` found, and when. */
export interface UpdatesWaiting {
  checkedAt: string;
  plugins: WaitingUpdate[];
}

export function updatesWaitingFile(paths: StorePaths): string {
  return join(paths.cache, 'updates-waiting.json');
}

/** Writes what the check found (a cache: losing it only loses the announcement). */
export async function writeUpdatesWaiting(paths: StorePaths, found: UpdatesWaiting): Promise<void> {
  mkdirSync(paths.cache, { recursive: true });
  await writeFileDurable(updatesWaitingFile(paths), `${JSON.stringify(found)}\n`);
}

/**
 * What the last check found, read synchronously without zod (a linked agent's SessionStart reads
 * it); null when there is none or it is not of its shape. Never throws.
 */
export function readUpdatesWaiting(paths: StorePaths): UpdatesWaiting | null {
  let value: unknown;
  try {
    value = JSON.parse(readRegularText(updatesWaitingFile(paths), { maxBytes: 1024 * 1024 }));
  } catch {
    return null;
  }
  if (!isPlainObject(value) || typeof value['checkedAt'] !== 'string') return null;
  const plugins = value['plugins'];
  if (!Array.isArray(plugins)) return null;
  const ok = plugins.every(
    (p) =>
      isPlainObject(p) &&
      typeof p['id'] === 'string' &&
      typeof p['installed'] === 'string' &&
      typeof p['available'] === 'string',
  );
  return ok ? { checkedAt: value['checkedAt'], plugins: plugins as WaitingUpdate[] } : null;
}
