import { ANY, DIGIT, DOT, SPACE, WORD, charSet, complement, single, union } from './char-set.js';
import type { CharSet } from './char-set.js';

/**
 * A parser for ECMAScript regular expressions as `new RegExp(source)` reads them (no flags, so the
 * Annex B leniencies apply: a lone `{` or `]` is literal, an unknown escape is its character). It is
 * only run on sources that already compiled, and builds the tree that safe-regex.ts checks. Character
 * sets may over-approximate (an octal escape counts as any character).
 */
export type RegexNode =
  | { kind: 'chars'; set: CharSet }
  | { kind: 'seq'; items: RegexNode[] }
  | { kind: 'alt'; branches: RegexNode[] }
  | { kind: 'group'; body: RegexNode }
  | { kind: 'look'; body: RegexNode }
  /** `text` is the quantified atom with its quantifier, as written, for messages. */
  | { kind: 'repeat'; body: RegexNode; min: number; max: number; text: string }
  | { kind: 'assert' }
  | { kind: 'backref' };

interface Cursor {
  src: string;
  pos: number;
  groups: number;
  named: boolean;
}

export function parseRegex(src: string): RegexNode {
  const cur: Cursor = { src, pos: 0, ...countGroups(src) };
  const node = parseAlternation(cur);
  if (cur.pos !== src.length)
    throw new Error(`Assertion failed: regex parse stopped at ${cur.pos}`);
  return node;
}

function parseAlternation(cur: Cursor): RegexNode {
  const branches = [parseSequence(cur)];
  while (cur.src[cur.pos] === '|') {
    cur.pos += 1;
    branches.push(parseSequence(cur));
  }
  return branches.length === 1 ? (branches[0] as RegexNode) : { kind: 'alt', branches };
}

function parseSequence(cur: Cursor): RegexNode {
  const items: RegexNode[] = [];
  while (cur.pos < cur.src.length && cur.src[cur.pos] !== '|' && cur.src[cur.pos] !== ')') {
    const start = cur.pos;
    const atom = parseAtom(cur);
    items.push(parseQuantifier(cur, atom, start));
  }
  return items.length === 1 ? (items[0] as RegexNode) : { kind: 'seq', items };
}

function parseQuantifier(cur: Cursor, atom: RegexNode, start: number): RegexNode {
  const ch = cur.src[cur.pos];
  let bounds: [number, number] | null = null;
  if (ch === '*') bounds = [0, Infinity];
  else if (ch === '+') bounds = [1, Infinity];
  else if (ch === '?') bounds = [0, 1];
  if (bounds !== null) cur.pos += 1;
  else if (ch === '{') {
    const m = /^\{(\d+)(,(\d*))?\}/.exec(cur.src.slice(cur.pos));
    if (m === null) return atom;
    cur.pos += m[0].length;
    const min = Number(m[1]);
    bounds = [min, m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3])];
  } else return atom;
  if (cur.src[cur.pos] === '?') cur.pos += 1;
  const text = cur.src.slice(start, cur.pos);
  return { kind: 'repeat', body: atom, min: bounds[0], max: bounds[1], text };
}

function parseAtom(cur: Cursor): RegexNode {
  const ch = cur.src[cur.pos] as string;
  cur.pos += 1;
  if (ch === '(') return parseGroup(cur);
  if (ch === '[') return { kind: 'chars', set: parseClass(cur) };
  if (ch === '.') return { kind: 'chars', set: DOT };
  if (ch === '^' || ch === '$') return { kind: 'assert' };
  if (ch === '\\') return parseEscape(cur);
  return { kind: 'chars', set: single(ch.charCodeAt(0)) };
}

function parseGroup(cur: Cursor): RegexNode {
  const rest = cur.src.slice(cur.pos);
  const look = /^\?(=|!|<=|<!)/.exec(rest);
  const prefix = look?.[0] ?? /^\?(:|<[^>]+>)/.exec(rest)?.[0] ?? '';
  cur.pos += prefix.length;
  const body = parseAlternation(cur);
  if (cur.src[cur.pos] !== ')') throw new Error('Assertion failed: unclosed group');
  cur.pos += 1;
  return look !== null ? { kind: 'look', body } : { kind: 'group', body };
}

const CLASS_ESCAPES: Readonly<Record<string, CharSet>> = {
  d: DIGIT,
  D: complement(DIGIT),
  w: WORD,
  W: complement(WORD),
  s: SPACE,
  S: complement(SPACE),
};

const CONTROL_ESCAPES: Readonly<Record<string, number>> = { t: 9, n: 10, v: 11, f: 12, r: 13 };

function parseEscape(cur: Cursor): RegexNode {
  const ch = cur.src[cur.pos] as string;
  if (ch === 'b' || ch === 'B') {
    cur.pos += 1;
    return { kind: 'assert' };
  }
  const digits = /^[1-9]\d*/.exec(cur.src.slice(cur.pos))?.[0];
  if (digits !== undefined && Number(digits) <= cur.groups) {
    cur.pos += digits.length;
    return { kind: 'backref' };
  }
  const named = cur.named && ch === 'k' ? /^k<[^>]+>/.exec(cur.src.slice(cur.pos)) : null;
  if (named !== null) {
    cur.pos += named[0].length;
    return { kind: 'backref' };
  }
  return { kind: 'chars', set: parseCharEscape(cur) };
}

/** An escape that stands for characters, outside or inside a class; `cur.pos` is after the `\`. */
function parseCharEscape(cur: Cursor): CharSet {
  const ch = cur.src[cur.pos] as string;
  cur.pos += 1;
  if (Object.hasOwn(CLASS_ESCAPES, ch)) return CLASS_ESCAPES[ch] as CharSet;
  if (Object.hasOwn(CONTROL_ESCAPES, ch)) return single(CONTROL_ESCAPES[ch] as number);
  const hex = ch === 'x' ? /^[0-9a-fA-F]{2}/ : ch === 'u' ? /^[0-9a-fA-F]{4}/ : null;
  const found = hex?.exec(cur.src.slice(cur.pos))?.[0];
  if (found !== undefined) {
    cur.pos += found.length;
    return single(parseInt(found, 16));
  }
  if (ch === 'c') {
    const letter = /^[A-Za-z]/.exec(cur.src.slice(cur.pos))?.[0];
    if (letter === undefined) {
      cur.pos -= 1; // Annex B: `\c` without a letter is a literal `\`, then `c` as the next atom
      return single(0x5c);
    }
    cur.pos += 1;
    return single(letter.charCodeAt(0) % 32);
  }
  if (/[0-7]/.test(ch)) {
    // Annex B octal escape (`\0`, `\12`): up to two more octal digits; any character, as a safe bound.
    cur.pos += /^[0-7]{0,2}/.exec(cur.src.slice(cur.pos))?.[0].length ?? 0;
    return ANY;
  }
  return single(ch.charCodeAt(0));
}

function parseClass(cur: Cursor): CharSet {
  const negated = cur.src[cur.pos] === '^';
  if (negated) cur.pos += 1;
  const parts: CharSet[] = [];
  while (cur.src[cur.pos] !== ']') {
    if (cur.pos >= cur.src.length) throw new Error('Assertion failed: unclosed class');
    const lo = parseClassAtom(cur);
    if (cur.src[cur.pos] === '-' && cur.src[cur.pos + 1] !== ']' && cur.pos + 1 < cur.src.length) {
      const save = cur.pos;
      cur.pos += 1;
      const hi = parseClassAtom(cur);
      const [a, b] = [single1(lo), single1(hi)];
      if (a !== null && b !== null) {
        parts.push(charSet([[a, b]]));
        continue;
      }
      cur.pos = save;
    }
    parts.push(lo);
  }
  cur.pos += 1;
  const set = union(...parts);
  return negated ? complement(set) : set;
}

function parseClassAtom(cur: Cursor): CharSet {
  const ch = cur.src[cur.pos] as string;
  cur.pos += 1;
  if (ch !== '\\') return single(ch.charCodeAt(0));
  if (cur.src[cur.pos] === 'b') {
    cur.pos += 1;
    return single(8);
  }
  if (cur.src[cur.pos] === '-') {
    cur.pos += 1;
    return single(0x2d);
  }
  return parseCharEscape(cur);
}

/** The one code unit of a single-character set, else null (a class escape in a range). */
function single1(set: CharSet): number | null {
  const only = set.length === 1 ? set[0] : undefined;
  return only !== undefined && only[0] === only[1] ? only[0] : null;
}

/** Capturing groups and whether any is named: decides what `\3` and `\k<x>` mean (Annex B). */
function countGroups(src: string): { groups: number; named: boolean } {
  let groups = 0;
  let named = false;
  let inClass = false;
  for (let i = 0; i < src.length; i += 1) {
    const ch = src[i];
    if (ch === '\\') i += 1;
    else if (inClass) inClass = ch !== ']';
    else if (ch === '[') inClass = true;
    else if (ch === '(') {
      if (src[i + 1] !== '?') groups += 1;
      else if (/^\(\?<[^=!]/.test(src.slice(i, i + 4))) {
        groups += 1;
        named = true;
      }
    }
  }
  return { groups, named };
}
