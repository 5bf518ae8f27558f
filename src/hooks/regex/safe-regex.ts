import { intersects } from './char-set.js';
import type { CharSet } from './char-set.js';
import { findLoopAmbiguity } from './loop-ambiguity.js';
import { parseRegex } from './regex-ast.js';
import type { RegexNode } from './regex-ast.js';
import { canConsume, children, consumable, first, matchesWithin, nullable } from './regex-facts.js';

/**
 * E4: a static check that a matcher's regular expression cannot backtrack catastrophically. Every
 * quantifier that repeats (upper bound > 1) has its body X checked; the regex is unsafe when
 *  1. X can match both the empty string and more (`(a*)*`, `(a|)+`);
 *  2. an alternation in X has two branches that can start the same way (`(a|a)*`, `(a|ab)*`,
 *     `(\w|\d)+`): branches are compared position by position over their fixed-length prefixes,
 *     so `(github|gitlab)+` is safe;
 *  3. X holds a variable quantifier Y (`+`, `*`, `?`, `{1,3}`; a fixed `{2}` is a sequence) such
 *     that what surrounds Y inside X can match nothing but characters Y itself consumes, so
 *     consecutive iterations can share Y's text in many ways
 *     (`(a+)+`, `(\w+\s?)+`, `(.*a){9}`, `(aa?)+`), while `(ab+)+` or `(\d+\.)+` stay safe;
 *  4. X holds a back-reference.
 * Rules 1-3 name the common shapes; behind them loop-ambiguity.ts decides the general case (a
 * repeated part that can read the same text along two paths, such as `(?:ba*a?)+`).
 * Lookarounds are checked on their own. Character sets over-approximate, which only makes the check
 * more cautious. Polynomial backtracking (`.*a.*b.*c` on long input) is not rejected.
 */
export type RegexSafety = { safe: true } | { safe: false; reason: string };

export function checkRegexSafety(source: string): RegexSafety {
  let tree: RegexNode;
  try {
    tree = parseRegex(source);
  } catch {
    return { safe: false, reason: 'it could not be analysed for catastrophic backtracking' };
  }
  const reason = findHazard(tree) ?? ambiguityHazard(tree);
  return reason === null ? { safe: true } : { safe: false, reason };
}

/** The general check behind rules 1-3, on the whole expression and on each lookaround body. */
function ambiguityHazard(tree: RegexNode): string | null {
  for (const root of [tree, ...lookBodies(tree)]) {
    const verdict = findLoopAmbiguity(root);
    if (verdict === 'ambiguous') {
      return 'a repeated part can match the same text in more than one way';
    }
    if (verdict === 'too_complex') {
      return 'it is too complex to be analysed for catastrophic backtracking';
    }
  }
  return null;
}

function lookBodies(node: RegexNode): RegexNode[] {
  const own = node.kind === 'look' ? [node.body] : [];
  return [...own, ...children(node).flatMap(lookBodies)];
}

function findHazard(node: RegexNode): string | null {
  if (node.kind === 'repeat' && node.max > 1) {
    const hazard = repeatHazard(node.body, node.text);
    if (hazard !== null) return hazard;
  }
  for (const child of children(node)) {
    const hazard = findHazard(child);
    if (hazard !== null) return hazard;
  }
  return null;
}

function repeatHazard(body: RegexNode, text: string): string | null {
  if (descendants(body, 'backref').length > 0) {
    return `the repeated ${quote(text)} holds a back-reference`;
  }
  if (nullable(body) && canConsume(body)) {
    return `the repeated ${quote(text)} can also match the empty string`;
  }
  for (const alt of descendants(body, 'alt')) {
    if (alt.kind === 'alt' && !branchesDistinct(alt.branches)) {
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
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}...` : text);
}

/** Nodes of one kind inside `node` (itself included), not entering lookarounds. */
function descendants(node: RegexNode, kind: RegexNode['kind']): RegexNode[] {
  if (node.kind === 'look') return [];
  const own = node.kind === kind ? [node] : [];
  return [...own, ...children(node).flatMap((child) => descendants(child, kind))];
}

interface InnerRepeat {
  node: Extract<RegexNode, { kind: 'repeat' }>;
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
