/**
 * Orders two strings by UTF-16 code units, the order of `Array.prototype.sort` without a
 * comparator and of canonical JSON keys: locale-independent, so sorted output is the same on
 * every machine. A comparator for `sort`: negative, zero or positive.
 */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
