import { describe, expect, it } from 'vitest';
import { firstOf } from '../../src/text/first-of.js';

// A list of any length in a message of bounded length: E_LOCK_MISMATCH, pack's refusals, doctor.

describe('firstOf', () => {
  it('lists every item when there are no more than shown, the first ones and a count otherwise', () => {
    expect(firstOf(['a', 'b'], 3, ', ')).toBe('a, b');
    expect(firstOf(['a', 'b', 'c'], 3, ', ')).toBe('a, b, c');
    expect(firstOf(['a', 'b', 'c', 'd', 'e'], 3, ', ')).toBe('a, b, c, and 2 more');
    expect(firstOf(['x', 'y'], 1, '; ')).toBe('x; and 1 more');
    expect(firstOf([], 5, '; ')).toBe('');
  });
});
