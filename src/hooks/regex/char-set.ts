/**
 * Sets of UTF-16 code units as sorted, disjoint, inclusive ranges: the character classes of a
 * regular expression (compiled without flags), for the static backtracking check of safe-regex.ts.
 * Sets may over-approximate: a larger set only makes that check more cautious.
 */
export type CharSet = readonly (readonly [number, number])[];

const MAX_UNIT = 0xffff;

export const EMPTY: CharSet = [];
export const ANY: CharSet = [[0, MAX_UNIT]];

export function charSet(ranges: ReadonlyArray<readonly [number, number]>): CharSet {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: Array<[number, number]> = [];
  for (const [lo, hi] of sorted) {
    const last = out[out.length - 1];
    if (last !== undefined && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

export function single(unit: number): CharSet {
  return [[unit, unit]];
}

export function union(...sets: CharSet[]): CharSet {
  return charSet(sets.flat());
}

export function complement(set: CharSet): CharSet {
  const out: Array<[number, number]> = [];
  let next = 0;
  for (const [lo, hi] of set) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= MAX_UNIT) out.push([next, MAX_UNIT]);
  return out;
}

export function intersects(a: CharSet, b: CharSet): boolean {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const [alo, ahi] = a[i] as readonly [number, number];
    const [blo, bhi] = b[j] as readonly [number, number];
    if (alo <= bhi && blo <= ahi) return true;
    if (ahi < bhi) i += 1;
    else j += 1;
  }
  return false;
}

export function isEmpty(set: CharSet): boolean {
  return set.length === 0;
}

const code = (char: string): number => char.charCodeAt(0);

export const DIGIT: CharSet = [[code('0'), code('9')]];
export const WORD: CharSet = charSet([
  [code('0'), code('9')],
  [code('A'), code('Z')],
  [code('_'), code('_')],
  [code('a'), code('z')],
]);
/** ECMAScript WhiteSpace and LineTerminator, which `\s` matches. */
export const SPACE: CharSet = charSet([
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
]);
/** What `.` matches without the `s` flag. */
export const DOT: CharSet = complement(
  charSet([
    [0x0a, 0x0a],
    [0x0d, 0x0d],
    [0x2028, 0x2029],
  ]),
);
