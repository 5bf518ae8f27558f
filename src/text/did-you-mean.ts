import { HookpmError } from '../errors.js';

/**
 * "Did you mean ...?" suggestions by edit distance
 * (docs/design/decisions.md#where-the-rules-are-silent): the optimal-string-alignment form of the
 * Damerau-Levenshtein distance (insert, delete, substitute, swap two neighbours; each costs 1),
 * compared without regard to case, so `gaurd` finds `guard` and `Guard` or `stop` find `guard` and
 * `Stop`.
 */

/** The optimal-string-alignment distance between `a` and `b` (code units). */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (a.length === 0) return b.length;
  if (b.length === 0) return a.length;
  // Three rows: the one before the previous (for swaps), the previous and the current.
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, (before[j - 2] as number) + 1);
      current.push(best);
    }
    before = previous;
    previous = current;
  }
  return previous[b.length] as number;
}

/** The most edits a suggestion may be away from `input`: 1 for short words, up to 3. */
function maxDistance(input: string): number {
  return Math.min(3, Math.max(1, Math.floor(input.length / 3)));
}

/**
 * The candidates nearest to `input` (all at the least distance, in the candidates' order), at most
 * `limit`, if that distance is small for its length; `input` itself (same case) is never suggested.
 * Empty when none is close.
 */
export function closestNames(input: string, candidates: Iterable<string>, limit = 3): string[] {
  const folded = input.toLowerCase();
  const limitDistance = maxDistance(input);
  const scored: Array<{ name: string; distance: number; order: number }> = [];
  const seen = new Set<string>();
  let order = 0;
  for (const name of candidates) {
    if (name === input || seen.has(name)) continue;
    seen.add(name);
    const distance = editDistance(folded, name.toLowerCase());
    if (distance <= limitDistance) scored.push({ name, distance, order: (order += 1) });
  }
  // As git does: only the nearest (`pretooluse` is PreToolUse, not also PostToolUse).
  const nearest = Math.min(...scored.map((s) => s.distance));
  return scored
    .filter((s) => s.distance === nearest)
    .sort((x, y) => x.order - y.order)
    .slice(0, limit)
    .map((s) => s.name);
}

/** `Did you mean guard?` / `Did you mean guard or guard2?`, or null when nothing is close. */
export function didYouMean(input: string, candidates: Iterable<string>): string | null {
  const names = closestNames(input, candidates);
  if (names.length === 0) return null;
  const last = names.pop() as string;
  return `Did you mean ${names.length === 0 ? last : `${names.join(', ')} or ${last}`}?`;
}

/** A hint with the suggestion (if any) as its first line. */
export function withSuggestion(
  suggestion: string | null,
  hint: string | undefined,
): string | undefined {
  if (suggestion === null) return hint;
  return hint === undefined ? suggestion : `${suggestion}\n${hint}`;
}

/**
 * `error` again with the suggestion for `input` among `candidates` as the first line of its hint
 * and the names in its `suggestions` field; `error` itself when nothing is close.
 */
export function suggestIn(
  error: HookpmError,
  input: string,
  candidates: Iterable<string>,
): HookpmError {
  const names = closestNames(input, candidates);
  if (names.length === 0) return error;
  const hint = withSuggestion(didYouMean(input, names), error.hint);
  return new HookpmError(error.code, error.message, {
    ...error.details,
    suggestions: names,
    ...(hint === undefined ? {} : { hint }),
  });
}
