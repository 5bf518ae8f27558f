import { clip } from '../text/clip.js';

/**
 * How a found value is shown in a diagnostic ("... found 0", "found \"60\"", "found an array"):
 * strings are JSON-quoted (control characters escaped) and cut, containers are named, never dumped.
 */
const MAX_SHOWN = 60;

export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (typeof value === 'string') {
    return JSON.stringify(clip(value, MAX_SHOWN));
  }
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.length === 0 ? 'an empty array' : 'an array';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
