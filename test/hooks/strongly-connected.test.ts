import { describe, expect, it } from 'vitest';
import { stronglyConnected } from '../../src/hooks/regex/strongly-connected.js';

describe('strongly connected components (used by the E4 check)', () => {
  it('E4: nodes on one cycle share a component; others do not', () => {
    const component = stronglyConnected(5, [[1], [2], [0, 3], [4], []]);
    expect(component[0]).toBe(component[1]);
    expect(component[1]).toBe(component[2]);
    expect(new Set([component[0], component[3], component[4]]).size).toBe(3);
  });

  it('E4: a long chain does not overflow the stack', () => {
    const n = 100_000;
    const successors = Array.from({ length: n }, (_, i) => (i + 1 < n ? [i + 1] : [0]));
    const component = stronglyConnected(n, successors);
    expect(new Set(component).size).toBe(1);
  });
});
