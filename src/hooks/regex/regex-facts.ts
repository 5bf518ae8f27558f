import { EMPTY, intersects, isEmpty, union } from './char-set.js';
import type { CharSet } from './char-set.js';
import type { RegexNode } from './regex-ast.js';

/** Facts about a regular-expression tree (regex-ast.ts) that the E4 checks are built from. */

/** The direct sub-trees of a node (a lookaround's body included). */
export function children(node: RegexNode): RegexNode[] {
  switch (node.kind) {
    case 'seq':
      return node.items;
    case 'alt':
      return node.branches;
    case 'group':
    case 'look':
    case 'repeat':
      return [node.body];
    default:
      return [];
  }
}

/** Whether the node can match the empty string (lookarounds, assertions and back-references can). */
export function nullable(node: RegexNode): boolean {
  switch (node.kind) {
    case 'chars':
      return false;
    case 'seq':
      return node.items.every(nullable);
    case 'alt':
      return node.branches.some(nullable);
    case 'group':
      return nullable(node.body);
    case 'repeat':
      return node.min === 0 || nullable(node.body);
    default:
      return true;
  }
}

/** Whether the node can consume at least one character. */
export function canConsume(node: RegexNode): boolean {
  switch (node.kind) {
    case 'chars':
      return !isEmpty(node.set);
    case 'seq':
      return node.items.some(canConsume);
    case 'alt':
      return node.branches.some(canConsume);
    case 'group':
      return canConsume(node.body);
    case 'repeat':
      return node.max > 0 && canConsume(node.body);
    case 'backref':
      return true;
    default:
      return false;
  }
}

/** Every character the node can consume (a back-reference: any). */
export function consumable(node: RegexNode): CharSet {
  if (node.kind === 'chars') return node.set;
  if (node.kind === 'backref') return [[0, 0xffff]];
  if (node.kind === 'look' || node.kind === 'assert') return EMPTY;
  return union(...children(node).map(consumable));
}

/** Whether the node can match some string (the empty one included) made only of `set`'s characters. */
export function matchesWithin(node: RegexNode, set: CharSet): boolean {
  switch (node.kind) {
    case 'chars':
      return intersects(node.set, set);
    case 'seq':
      return node.items.every((item) => matchesWithin(item, set));
    case 'alt':
      return node.branches.some((branch) => matchesWithin(branch, set));
    case 'group':
      return matchesWithin(node.body, set);
    case 'repeat':
      return node.min === 0 || matchesWithin(node.body, set);
    default:
      return true;
  }
}

/** Characters that can start a non-empty match of the node. */
export function first(node: RegexNode): CharSet {
  switch (node.kind) {
    case 'chars':
      return node.set;
    case 'seq': {
      const sets: CharSet[] = [];
      for (const item of node.items) {
        sets.push(first(item));
        if (!nullable(item)) break;
      }
      return union(...sets);
    }
    case 'alt':
      return union(...node.branches.map(first));
    case 'group':
      return first(node.body);
    case 'repeat':
      return node.max === 0 ? EMPTY : first(node.body);
    case 'backref':
      return [[0, 0xffff]];
    default:
      return EMPTY;
  }
}
