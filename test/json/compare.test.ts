import { describe, expect, it } from 'vitest';
import { compareCodeUnits } from '../../src/json/compare.js';

describe('compareCodeUnits', () => {
  it('orders by UTF-16 code units, as canonical JSON sorts keys (engine.md R3), not by locale', () => {
    const words = ['b', 'B', 'a', 'é', 'Z', 'a-b', 'a_b', '10', '9', '\u{1F600}', '\uFFFF'];
    expect([...words].sort(compareCodeUnits)).toEqual([...words].sort());
    expect([...words].sort(compareCodeUnits)).toEqual([
      '10',
      '9',
      'B',
      'Z',
      'a',
      'a-b',
      'a_b',
      'b',
      'é',
      '\u{1F600}',
      '\uFFFF',
    ]);
  });

  it('is zero for equal strings and antisymmetric otherwise', () => {
    expect(compareCodeUnits('guard@examples', 'guard@examples')).toBe(0);
    expect(compareCodeUnits('a', 'b')).toBe(-1);
    expect(compareCodeUnits('b', 'a')).toBe(1);
  });
});
