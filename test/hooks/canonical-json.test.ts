import { describe, expect, it } from 'vitest';
import { canonicalJson, sha256Base64, sha256Hex } from '../../src/json/canonical-json.js';

describe('canonical JSON', () => {
  it.each([
    [{ b: 1, a: [true, null, 'x'] }, '{"a":[true,null,"x"],"b":1}'],
    [{ z: { y: 1, x: 2 }, A: 0 }, '{"A":0,"z":{"x":2,"y":1}}'],
    [{ a: undefined, b: [undefined, Infinity] }, '{"b":[null,null]}'],
    ['line\nbreak "quoted"', '"line\\nbreak \\"quoted\\""'],
    [[], '[]'],
    [{ b: 1, '10': 2, '9': 3 }, '{"10":2,"9":3,"b":1}'],
    [{ n: [0.5, -0, 1e21, 5e-7] }, '{"n":[0.5,0,1e+21,5e-7]}'],
  ])('R3/Q2: %j is written with sorted keys and no whitespace', (value, expected) => {
    expect(canonicalJson(value)).toBe(expected);
  });

  it('R3: equal data written in a different key order gives the same text', () => {
    expect(canonicalJson({ x: 1, y: { p: [1, 2], q: 'a' } })).toBe(
      canonicalJson({ y: { q: 'a', p: [1, 2] }, x: 1 }),
    );
  });

  it('R3: a "__proto__" key of untrusted JSON is written like any other key', () => {
    const value = JSON.parse('{"b":1,"__proto__":{"x":1}}') as unknown;
    expect(canonicalJson(value)).toBe('{"__proto__":{"x":1},"b":1}');
    expect(canonicalJson(value)).not.toBe(canonicalJson({ b: 1 }));
  });

  it('a value that is not JSON is an assertion failure, not silent output', () => {
    expect(() => canonicalJson(() => 1)).toThrow(/Assertion failed/);
  });

  it('sha256Hex and sha256Base64 give the standard SHA-256 of UTF-8 text', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Base64('')).toBe('47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=');
    expect(sha256Hex(new TextEncoder().encode('abc'))).toBe(sha256Hex('abc'));
  });
});
