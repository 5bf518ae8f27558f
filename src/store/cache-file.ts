import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { writeFileDurable } from '../io/durable-write.js';
import { sha256Hex } from '../json/canonical-json.js';
import { readRegularText } from '../io/read-regular-file.js';

/** A cache file larger than this is not read (and so is recomputed). */
export const CACHE_FILE_MAX_BYTES = 256 * 1024 * 1024;

/**
 * A file of the cache directory that only ever saves work: its first line is the SHA-256 hex of
 * the rest and a format name, the rest is JSON. Reading gives null for a missing file, one that
 * is not a regular file (a symlink, a FIFO, a device) of at most CACHE_FILE_MAX_BYTES, another
 * format, a damaged file (the hash does not match: a torn or hand-edited file) or invalid JSON;
 * writing replaces the file whole (io/durable-write.ts), so readers see the old or the new one.
 * The hash detects damage, not forgery: a process running as the user can write a matching file,
 * as it can write the state (see the callers for why that gives it nothing more).
 */
export function readCacheFile(file: string, format: string): unknown {
  let text: string;
  try {
    text = readRegularText(file, { maxBytes: CACHE_FILE_MAX_BYTES });
  } catch {
    return null;
  }
  const newline = text.indexOf('\n');
  if (newline !== 65 + format.length || text.slice(65, newline) !== format) return null;
  const body = text.slice(newline + 1);
  if (text.slice(0, 65) !== `${sha256Hex(body)} `) return null;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return null;
  }
}

/** Writes `value` as the cache file of `format`; false when it could not be written (ignored). */
export async function writeCacheFile(
  file: string,
  format: string,
  value: unknown,
): Promise<boolean> {
  try {
    const body = JSON.stringify(value);
    mkdirSync(dirname(file), { recursive: true });
    await writeFileDurable(file, `${sha256Hex(body)} ${format}\n${body}`, { mode: 0o600 });
    return true;
  } catch {
    return false;
  }
}
