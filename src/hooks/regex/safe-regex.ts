import { intersects } from './char-set.js';
import type { CharSet } from './char-set.js';
import { findLoopAmbiguity } from './loop-ambiguity.js';
import { parseRegex } from './regex-ast.js';
import type { RegexNode } from './regex-ast.js';
import { canConsume, children, consumable, first, matchesWithin, nullable } from './regex-facts.js';
import { clip } from '../../text/clip.js';

/**
 * E4: a static check that a matcher's regular expression cannot backtrack catastrophically. The
 * general check is loop-ambiguity.ts: the expression, and each lookaround body on its own, is unsafe
 * when some loop can read the same text along two paths (`(a+)+`, `(a|a)*`, `(\w+\s?)+`,
 * `(?:ba*a?)+`), while `(a|ab)*`, `(ab+)+` or `(github|gitlab)+` stay safe. Beside it, rules for
 * what its automaton cannot see, each on the body X of a quantifier that repeats (upper bound > 1):
 *  1. X holds a back-reference: the automaton reads one as a single character, though it repeats
 *     a captured text of any length;
 *  2. X can match both the empty string and more (`(a|)+`, `(?:a?)+`): the automaton has no empty
 *     moves, so an iteration that matches nothing leaves no trace in it;
 *  3. the repeat is counted (a finite upper bound, `{9}`): the automaton unrolls its copies, and a
 *     fixed count forms no loop, yet the ways to read a text multiply across the copies, so X is
 *     unsafe when
 *     - an alternation in X has two branches that can start the same way (`(a|a){30}`; branches
 *       are compared position by position over their fixed-length prefixes, so
 *       `(github|gitlab){2}` is safe), or
 *     - X holds a variable quantifier Y (`+`, `*`, `?`, `{1,3}`; a fixed `{2}` is a sequence) such
 *       that what surrounds Y inside X can match nothing but characters Y itself consumes, so the
 *       copies can share Y's text in many ways (`(.*a){9}`), while `(\d{1,3}\.){3}` stays safe.
 * Character sets over-approximate, which only makes the check more cautious. Polynomial
 * backtracking outside a counted repeat (`.*a.*b.*c` on long input) is not rejected.
 */
export type RegexSafety = { safe: true } | { safe: false; reason: string };

export function checkRegexSafety(source: string): RegexSafety {
  let tree: RegexNode;
  try {
    tree = parseRegex(source);
  } catch {
    return { safe: false, reason: 'it could not be analysed for catastrophic backtracking' };
  }
  if (loopsReadOneCharacter(tree)) return { safe: true };
  const reason = findHazard(tree) ?? ambiguityHazard(tree);
  return reason === null ? { safe: true } : { safe: false, reason };
}

/**
 * Whether every repeat that repeats is `*` or `+` (or `{0,}`, `{1,}`) on one character or class
 * (`.*`, `[^/]+`, `\w*`), lookaround bodies included: most matchers are (`^mcp__github__.*`).
 * Then each loop of the automaton is one position with one edge to itself, which cannot read a
 * text along two paths, and rules 1-3 find nothing (one character holds no back-reference, cannot
 * match the empty string, and is not counted), so the general check, which costs microseconds a
 * matcher, would find the expression safe: it is skipped. Nor can such an expression be too
 * complex: it has one position per character of its source.
 */
function loopsReadOneCharacter(node: RegexNode): boolean {
  if (node.kind === 'repeat' && node.max > 1) {
    if (node.max !== Infinity || node.min > 1 || !oneCharacter(node.body)) return false;
  }
  return children(node).every(loopsReadOneCharacter);
}

function oneCharacter(node: RegexNode): boolean {
  return node.kind === 'chars' || (node.kind === 'group' && oneCharacter(node.body));
}

/** The general check, on the whole expression and on each lookaround body. */
function ambiguityHazard(tree: RegexNode): string | null {
  for (const root of [tree, ...lookBodies(tree)]) {
    const verdict = findLoopAmbiguity(root);
    if (verdict === 'ambiguous') return ambiguousPart(root);
    if (verdict === 'too_complex') {
      return 'it is too complex to be analysed for catastrophic backtracking';
    }
  }
  return null;
}

/**
 * Names a smallest repeat whose own automaton is ambiguous: an ambiguous cycle runs through the
 * positions of one repeat, so that repeat, taken alone, has it too. Reversed, the pre-order puts
 * every repeat after the repeats inside it.
 */
function ambiguousPart(root: RegexNode): string {
  const repeats = descendants(root, 'repeat').reverse();
  const part = repeats.find((node) => findLoopAmbiguity(node) === 'ambiguous');
  const what = part === undefined ? 'a repeated part' : `the repeated ${quote(part.text)}`;
  return `${what} can match the same text in more than one way`;
}

function lookBodies(node: RegexNode): RegexNode[] {
  const own = node.kind === 'look' ? [node.body] : [];
  return [...own, ...children(node).flatMap(lookBodies)];
}

function findHazard(node: RegexNode): string | null {
  if (node.kind === 'repeat' && node.max > 1) {
    const hazard = repeatHazard(node);
    if (hazard !== null) return hazard;
  }
  for (const child of children(node)) {
    const hazard = findHazard(child);
    if (hazard !== null) return hazard;
  }
  return null;
}

/** Rules 1 and 2 for every repeat, rule 3 for a counted one. */
function repeatHazard(node: NodeOf<'repeat'>): string | null {
  const { body, text } = node;
  if (descendants(body, 'backref').length > 0) {
    return `the repeated ${quote(text)} holds a back-reference`;
  }
  if (nullable(body) && canConsume(body)) {
    return `the repeated ${quote(text)} can also match the empty string`;
  }
  return node.max === Infinity ? null : countedHazard(body, text);
}

/** Rule 3: what makes the copies of a counted repeat read one text in many ways. */
function countedHazard(body: RegexNode, text: string): string | null {
  for (const alt of descendants(body, 'alt')) {
    if (!branchesDistinct(alt.branches)) {
      return `the repeated ${quote(text)} holds alternatives that can match the same text`;
    }
  }
  for (const inner of innerRepeats(body, [], [])) {
    const own = consumable(inner.node.body);
    if ([...inner.before, ...inner.after].every((node) => matchesWithin(node, own))) {
      return `nested quantifiers: ${quote(inner.node.text)} inside the repeated ${quote(text)}`;
    }
  }
  return null;
}

function quote(text: string): string {
  return JSON.stringify(clip(text, 60));
}

type NodeOf<K extends RegexNode['kind']> = Extract<RegexNode, { kind: K }>;

/** Nodes of one kind inside `node` (itself included), in pre-order, not entering lookarounds. */
function descendants<K extends RegexNode['kind']>(node: RegexNode, kind: K): NodeOf<K>[] {
  if (node.kind === 'look') return [];
  const own = node.kind === kind ? [node as NodeOf<K>] : [];
  return [...own, ...children(node).flatMap((child) => descendants(child, kind))];
}

interface InnerRepeat {
  node: NodeOf<'repeat'>;
  before: RegexNode[];
  after: RegexNode[];
}

/** Variable quantifiers inside a body, each with what precedes and follows it in one iteration. */
function innerRepeats(node: RegexNode, before: RegexNode[], after: RegexNode[]): InnerRepeat[] {
  switch (node.kind) {
    case 'repeat': {
      const own = node.min !== node.max ? [{ node, before, after }] : [];
      return [...own, ...innerRepeats(node.body, before, after)];
    }
    case 'seq':
      return node.items.flatMap((item, i) =>
        innerRepeats(
          item,
          [...before, ...node.items.slice(0, i)],
          [...node.items.slice(i + 1), ...after],
        ),
      );
    case 'alt':
      return node.branches.flatMap((branch) => innerRepeats(branch, before, after));
    case 'group':
      return innerRepeats(node.body, before, after);
    default:
      return [];
  }
}

const PREFIX_LIMIT = 16;

/**
 * The character sets of a node's fixed-length start, one per position; the first variable part
 * adds its first characters (when it cannot be empty) and ends the list. Returns whether the
 * node was fully consumed.
 */
function prefixSets(node: RegexNode, out: CharSet[]): boolean {
  if (out.length >= PREFIX_LIMIT) return false;
  switch (node.kind) {
    case 'chars':
      out.push(node.set);
      return true;
    case 'seq':
      return node.items.every((item) => prefixSets(item, out));
    case 'group':
      return prefixSets(node.body, out);
    case 'assert':
    case 'look':
      return true;
    case 'repeat':
      if (node.min === node.max && node.min <= PREFIX_LIMIT) {
        for (let i = 0; i < node.min; i += 1) if (!prefixSets(node.body, out)) return false;
        return true;
      }
      break;
    default:
      break;
  }
  if (!nullable(node)) out.push(first(node));
  return false;
}

/** Whether every two branches differ at some position of their fixed-length starts. */
function branchesDistinct(branches: readonly RegexNode[]): boolean {
  const prefixes = branches.map((branch) => {
    const out: CharSet[] = [];
    prefixSets(branch, out);
    return out;
  });
  return prefixes.every((a, i) =>
    prefixes
      .slice(i + 1)
      .every((b) => a.some((set, k) => k < b.length && !intersects(set, b[k] as CharSet))),
  );
}
