/**
 * The globs of `if` rules (engine.md F2): `*` and `**` match any run of characters (`/` and spaces
 * included), `?` exactly one character, everything else itself; the whole input must match. A
 * trailing `:*` means "this prefix, then anything" (`npm run test:*`). There is no escape syntax.
 * Matching walks the pattern once with one remembered star: O(pattern x input), never exponential.
 */
export type Glob = readonly string[];

export function compileGlob(pattern: string): Glob {
  const normalised = pattern.replace(/:\*$/, '*').replace(/\*+/g, '*');
  return Array.from(normalised);
}

export function globMatches(glob: Glob, input: string): boolean {
  // The literal head (before the first `*` or `?`) must begin the input: checked first, since
  // splitting the input into code points below costs its whole length.
  let head = '';
  for (const unit of glob) {
    if (unit === '*' || unit === '?') break;
    head += unit;
  }
  if (!input.startsWith(head)) return false;
  const text = Array.from(input);
  let p = 0;
  let s = 0;
  let starP = -1;
  let starS = 0;
  while (s < text.length) {
    const unit = glob[p];
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
  while (glob[p] === '*') p += 1;
  return p === glob.length;
}
