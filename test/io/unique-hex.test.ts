import { describe, expect, it } from 'vitest';
import { uniqueHex } from '../../src/io/unique-hex.js';

describe('unique names for temporary files and lock tokens (registry.md D2, D3)', () => {
  it('D2: gives exactly the bytes asked for, as lower-case hex, whatever their number', () => {
    for (const bytes of [1, 3, 4, 6, 16, 33])
      expect(uniqueHex(bytes)).toMatch(new RegExp(`^[0-9a-f]{${bytes * 2}}$`));
  });

  it('D2, D3: does not repeat: 10,000 six-byte names, all different', () => {
    const names = new Set(Array.from({ length: 10_000 }, () => uniqueHex(6)));
    expect(names.size).toBe(10_000);
  });
});
