import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { readRegularText } from '../io/read-regular-file.js';
import { fnv1a } from '../text/fnv1a.js';
import { replaceFile } from './replace-file.js';

/** A shard larger than this is not read (and so is recomputed). */
const SHARD_MAX_BYTES = 64 * 1024 * 1024;

/**
 * A shard of a cache: its first line is fnv1a of the rest and a format name, the rest JSON.
 * Reading gives null for a missing file, one that is not a regular file of at most
 * SHARD_MAX_BYTES, another format, a damaged file or invalid JSON.
 */
export function readShard(file: string, format: string): unknown {
  let text: string;
  try {
    text = readRegularText(file, { maxBytes: SHARD_MAX_BYTES });
  } catch {
    return null;
  }
  const newline = text.indexOf('\n');
  if (newline !== 9 + format.length || text.slice(9, newline) !== format) return null;
  const body = text.slice(newline + 1);
  if (text.slice(0, 9) !== `${fnv1a(body)} `) return null;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return null;
  }
}

/** Writes `value` as a shard of `format` (replaceFile); false when it could not be (ignored). */
export function writeShard(file: string, format: string, value: unknown): boolean {
  try {
    const body = JSON.stringify(value);
    mkdirSync(dirname(file), { recursive: true });
    replaceFile(file, `${fnv1a(body)} ${format}\n${body}`);
    return true;
  } catch {
    return false;
  }
}
