import { compareCodeUnits } from '../json/compare.js';

/**
 * The text of a project file (hookpm.json, hookpm.lock): object keys sorted by UTF-16 code units at
 * every depth, two-space indentation, one trailing newline. Equal data always gives equal bytes, on
 * any machine, and a change to one plugin changes only its own lines (small diffs).
 */
export function sortedJsonText(value: unknown): string {
  return `${JSON.stringify(sortKeys(value), null, 2)}\n`;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record).sort(compareCodeUnits)) {
    if (record[key] !== undefined) out[key] = sortKeys(record[key]);
  }
  return out;
}
