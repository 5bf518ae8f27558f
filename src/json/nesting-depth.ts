import { MAX_DEPTH } from './strict-parser.js';

export { MAX_DEPTH };

/**
 * Whether a parsed JSON value nests objects and arrays more than `limit` levels deep (the value
 * itself, when a container, is level 1): the strict parser's cap (MAX_DEPTH), applied to a value
 * JSON.parse or a library caller made. Walks without recursion, so a hostile value cannot exhaust
 * the stack, and stops at the first container over the limit.
 */
export function nestsDeeperThan(value: unknown, limit = MAX_DEPTH): boolean {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 1 }];
  while (stack.length > 0) {
    const { value: item, depth } = stack.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    if (depth > limit) return true;
    const children = Array.isArray(item) ? item : Object.values(item);
    for (const child of children)
      if (typeof child === 'object' && child !== null)
        stack.push({ value: child, depth: depth + 1 });
  }
  return false;
}
