/**
 * The first `shown` of `items` joined by `separator`, then `and N more` for the rest: a list of any
 * length in a message of bounded length (`a; b; and 3 more`, `a, b, c, and 2 more`).
 */
export function firstOf(items: readonly string[], shown: number, separator: string): string {
  const rest = items.length - shown;
  const listed = items.slice(0, shown);
  return [...listed, ...(rest > 0 ? [`and ${rest} more`] : [])].join(separator);
}
