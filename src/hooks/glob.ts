/**
 * The globs of `if` rules (engine.md F2): `*` and `**` match any run of characters (`/` and spaces
 * included), `?` exactly one character, everything else itself; the whole input must match. A
 * trailing `:*` means "this prefix, then anything" (`npm run test:*`). There is no escape syntax.
 * Matching walks the pattern once with one remembered star: O(pattern x input), never exponential.
 */
export interface Glob {
  /** The pattern's code points, runs of `*` made one. */
  readonly units: readonly string[];
  /** The literal text before the first `*` or `?`, which a matching input begins with. */
  readonly head: string;
  /** What follows the head: nothing (the glob is its head), one `*` alone, or anything else. */
  readonly tail: 'none' | 'star' | 'glob';
}

export function compileGlob(pattern: string): Glob {
  const normalised = pattern.replace(/:\*$/, '*').replace(/\*+/g, '*');
  const units = Array.from(normalised);
  const wild = units.findIndex((unit) => unit === '*' || unit === '?');
  if (wild < 0) return { units, head: normalised, tail: 'none' };
  const head = units.slice(0, wild).join('');
  // A head ending in a lone high surrogate does not match the code point an input may make of it
  // with the next unit: only the walk tells.
  const star = wild === units.length - 1 && units[wild] === '*' && !HIGH_SURROGATE.test(head);
  return { units, head, tail: star ? 'star' : 'glob' };
}

const HIGH_SURROGATE = /[\uD800-\uDBFF]$/;

export function globMatches(glob: Glob, input: string): boolean {
  // The literal head must begin the input: checked first, since splitting the input into code
  // points below costs its whole length; a head alone, or a head and one `*`, needs no more.
  const { units, head, tail } = glob;
  if (tail === 'none') return input === head;
  if (!input.startsWith(head)) return false;
  if (tail === 'star') return true;
  const text = Array.from(input);
  let p = 0;
  let s = 0;
  let starP = -1;
  let starS = 0;
  while (s < text.length) {
    const unit = units[p];
    if (unit === '*') {
      starP = p;
      starS = s;
      p += 1;
    } else if (unit !== undefined && (unit === '?' || unit === text[s])) {
      p += 1;
      s += 1;
    } else if (starP >= 0) {
      p = starP + 1;
      starS += 1;
      s = starS;
    } else {
      return false;
    }
  }
  while (units[p] === '*') p += 1;
  return p === units.length;
}
