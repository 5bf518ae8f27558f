import { ANY, intersects } from './char-set.js';
import type { CharSet } from './char-set.js';
import type { RegexNode } from './regex-ast.js';
import { stronglyConnected } from './strongly-connected.js';

/**
 * Exponential ambiguity of a regular expression: whether some loop can read the same text along
 * two different paths (then a backtracking matcher may try exponentially many). The expression
 * becomes a position automaton (Glushkov) whose edges keep their multiplicity, so `(a+)+`, where
 * two loops give the edge a->a, counts twice. It is ambiguous when, in the product of the
 * automaton with itself, a cycle through a pair (q, q) also passes a pair (p, p') with p != p' or
 * uses a doubled edge. Counted repeats are unrolled; a variable tail `{n,m}` is read as a loop, which
 * can only add ambiguity. Lookarounds and assertions read nothing; a back-reference reads anything.
 */
export type Ambiguity = 'ambiguous' | 'unambiguous' | 'too_complex';

const MAX_POSITIONS = 2_000;
const MAX_PAIRS = 200_000;

interface Fragment {
  first: number[];
  last: number[];
  nullable: boolean;
}

class TooComplex extends Error {}

export function findLoopAmbiguity(tree: RegexNode): Ambiguity {
  const sets: CharSet[] = [];
  const follow: Array<Map<number, number>> = [];
  const position = (set: CharSet): Fragment => {
    if (sets.length >= MAX_POSITIONS) throw new TooComplex();
    sets.push(set);
    follow.push(new Map());
    return { first: [sets.length - 1], last: [sets.length - 1], nullable: false };
  };
  const link = (from: readonly number[], to: readonly number[]): void => {
    for (const p of from) {
      const edges = follow[p] as Map<number, number>;
      for (const r of to) edges.set(r, (edges.get(r) ?? 0) + 1);
    }
  };
  try {
    build(tree, { position, link });
  } catch (error) {
    if (error instanceof TooComplex) return 'too_complex';
    throw error;
  }
  return findAmbiguousLoop(sets, follow);
}

interface Builder {
  position: (set: CharSet) => Fragment;
  link: (from: readonly number[], to: readonly number[]) => void;
}

const EMPTY_FRAGMENT: Fragment = { first: [], last: [], nullable: true };

function build(node: RegexNode, b: Builder): Fragment {
  switch (node.kind) {
    case 'chars':
      return b.position(node.set);
    case 'backref':
      return b.position(ANY);
    case 'group':
      return build(node.body, b);
    case 'seq':
      return node.items.reduce((acc, item) => concat(acc, build(item, b), b), EMPTY_FRAGMENT);
    case 'alt': {
      const parts = node.branches.map((branch) => build(branch, b));
      return {
        first: parts.flatMap((part) => part.first),
        last: parts.flatMap((part) => part.last),
        nullable: parts.some((part) => part.nullable),
      };
    }
    case 'repeat':
      return buildRepeat(node, b);
    default:
      return EMPTY_FRAGMENT;
  }
}

function buildRepeat(node: Extract<RegexNode, { kind: 'repeat' }>, b: Builder): Fragment {
  const { min, max } = node;
  if (max === 0) return EMPTY_FRAGMENT;
  let result = EMPTY_FRAGMENT;
  const mandatory = max === Infinity || max - min > 1 ? Math.max(min - 1, 0) : min;
  for (let i = 0; i < mandatory; i += 1) result = concat(result, build(node.body, b), b);
  if (mandatory === min && max === min) return result;
  const tail = build(node.body, b);
  if (max === min + 1 && max !== Infinity && mandatory === min) {
    return concat(result, { ...tail, nullable: true }, b);
  }
  b.link(tail.last, tail.first);
  return concat(result, { ...tail, nullable: tail.nullable || min === 0 }, b);
}

function concat(a: Fragment, c: Fragment, b: Builder): Fragment {
  b.link(a.last, c.first);
  return {
    first: a.nullable ? [...a.first, ...c.first] : a.first,
    last: c.nullable ? [...c.last, ...a.last] : c.last,
    nullable: a.nullable && c.nullable,
  };
}

function findAmbiguousLoop(
  sets: readonly CharSet[],
  follow: ReadonlyArray<Map<number, number>>,
): Ambiguity {
  const n = sets.length;
  const successors = follow.map((edges) => [...edges.keys()]);
  const component = stronglyConnected(n, successors);
  // Pairs (p, q) of one component, reachable from a diagonal pair, as dense ids.
  const ids = new Map<number, number>();
  const pairs: Array<[number, number]> = [];
  const pairSuccessors: number[][] = [];
  const doubled: Array<[number, number]> = [];
  const idOf = (p: number, q: number): number => {
    const key = p * n + q;
    let id = ids.get(key);
    if (id === undefined) {
      if (pairs.length >= MAX_PAIRS) throw new TooComplex();
      id = pairs.length;
      ids.set(key, id);
      pairs.push([p, q]);
      pairSuccessors.push([]);
    }
    return id;
  };
  try {
    for (let q = 0; q < n; q += 1) if ((follow[q] as Map<number, number>).size > 0) idOf(q, q);
    for (let id = 0; id < pairs.length; id += 1) {
      const [p, q] = pairs[id] as [number, number];
      for (const [p2, countP] of follow[p] as Map<number, number>) {
        if (component[p2] !== component[p]) continue;
        for (const [q2] of follow[q] as Map<number, number>) {
          if (
            component[q2] !== component[q] ||
            !intersects(sets[p2] as CharSet, sets[q2] as CharSet)
          )
            continue;
          const next = idOf(p2, q2);
          (pairSuccessors[id] as number[]).push(next);
          if (p === q && p2 === q2 && countP > 1) doubled.push([id, next]);
        }
      }
    }
  } catch (error) {
    if (error instanceof TooComplex) return 'too_complex';
    throw error;
  }
  const pairComponent = stronglyConnected(pairs.length, pairSuccessors);
  const withDiagonal = new Set<number>();
  pairs.forEach(([p, q], id) => {
    if (p === q) withDiagonal.add(pairComponent[id] as number);
  });
  const offDiagonal = pairs.some(
    ([p, q], id) => p !== q && withDiagonal.has(pairComponent[id] as number),
  );
  const doubledInCycle = doubled.some(([from, to]) => pairComponent[from] === pairComponent[to]);
  return offDiagonal || doubledInCycle ? 'ambiguous' : 'unambiguous';
}
