import { describe, expect, it } from 'vitest';
import { parseJson } from '../../src/json/parse-json.js';
import { parseStrict } from '../../src/json/strict-parser.js';

function failure(text: string) {
  const result = parseJson(text, 'hooks.json');
  if (result.ok) throw new Error(`expected a failure for ${text}`);
  return result;
}

describe('parseJson', () => {
  it('P4: valid JSON parses to the same value as JSON.parse', () => {
    const text = '{"a":[1,-2.5e3,true,false,null,"x\\u00e9\\n"],"b":{"c":{}}}';
    expect(parseJson(text, 'f.json')).toEqual({
      ok: true,
      value: JSON.parse(text),
      bom: false,
      duplicates: [],
    });
  });

  it('P4: a duplicate key in one object is an error naming the key and its JSON path', () => {
    const result = failure(
      '{\n  "hooks": {"Stop": [{"hooks": [{"type": "command", "type": "x"}]}]}\n}',
    );
    expect(result.message).toContain('duplicate key "type"');
    expect(result.message).toContain('hooks.Stop[0].hooks[0]');
    expect(result.line).toBe(2);
    expect(result.column).toBe(53);
  });

  it('P4: a duplicate key at the top level names the top-level object', () => {
    expect(failure('{"name":"a","name":"b"}')).toMatchObject({ line: 1, column: 13 });
    expect(failure('{"name":"a","name":"b"}').message).toBe(
      'duplicate key "name" in the top-level object',
    );
  });

  it('P4: a duplicate key, and a key on its path, of any length are quoted cut short', () => {
    const long = 'k'.repeat(1_000_000);
    const { message } = failure(`{"${long} x": {"${long}": 1, "${long}": 2}}`);
    const cut = `"${'k'.repeat(60)}..."`;
    expect(message).toBe(`duplicate key ${cut} in the object at [${cut}]`);
  });

  it('P4: a key on the path that is a long bare word, and a path of any depth, are cut short too', () => {
    const word = 'k'.repeat(200_000);
    const cut = `"${'k'.repeat(60)}..."`;
    expect(failure(`{"${word}": {"a": 1, "a": 2}}`).message).toBe(
      `duplicate key "a" in the object at [${cut}]`,
    );
    const deep = `${'{"key": '.repeat(400)}{"a": 1, "a": 2}${'}'.repeat(400)}`;
    const { message } = failure(deep);
    expect(message).toBe(`duplicate key "a" in the object at ${'key.'.repeat(50)}...`);
  });

  it('P4: duplicateKeys "last" reads a repeated key as JSON.parse does, the last value winning, and lists each repeat', () => {
    const text = '{\n  "a": 1,\n  "b": {"c": 1, "c": [2]},\n  "a": {"x": true}\n}';
    const result = parseJson(text, 'hooks.json', { duplicateKeys: 'last' });
    expect(result).toEqual({
      ok: true,
      value: JSON.parse(text),
      bom: false,
      duplicates: [
        { message: 'duplicate key "c" in the object at b', line: 3, column: 17 },
        { message: 'duplicate key "a" in the top-level object', line: 4, column: 3 },
      ],
    });
    expect(Object.keys(result.ok ? (result.value as object) : {})).toEqual(['a', 'b']);
    expect(
      parseJson('{"__proto__":1,"__proto__":{"y":2}}', 'f', { duplicateKeys: 'last' }),
    ).toMatchObject({
      ok: true,
      value: JSON.parse('{"__proto__":1,"__proto__":{"y":2}}'),
    });
    // Invalid JSON stays an error; the default still refuses duplicates.
    expect(parseJson('{"a":1,"a":2,}', 'f', { duplicateKeys: 'last' }).ok).toBe(false);
    expect(parseJson('{"a":1,"a":2}', 'f').ok).toBe(false);
  });

  it('P4: the same key in two different objects is not a duplicate', () => {
    const result = parseJson('[{"a":1},{"a":2},{"b":{"a":3}}]', 'f.json');
    expect(result.ok).toBe(true);
  });

  it('P4: a string value that looks like a key does not hide a duplicate', () => {
    expect(failure('{"a":"\\":","a":2}').message).toContain('duplicate key "a"');
    expect(parseJson('{"a":"\\"b\\":","c":2}', 'f.json').ok).toBe(true);
  });

  it('P4: a duplicated "__proto__" key is detected and a single one is an own property', () => {
    expect(failure('{"__proto__":1,"__proto__":2}').message).toContain('duplicate key "__proto__"');
    const single = parseJson('{"__proto__":{"x":1}}', 'f.json');
    expect(single.ok && Object.keys(single.value as object)).toEqual(['__proto__']);
  });

  it('P4: a trailing comma is an error with its line and column', () => {
    const result = failure('{\n  "a": 1,\n}');
    expect(result).toMatchObject({ line: 3, column: 1 });
    expect(result.message).toBe('trailing comma before "}"');
    expect(failure('[1,2,]').message).toContain('trailing comma before "]"');
  });

  it('P4: a missing comma reports where the next member starts', () => {
    const result = failure('{\n  "a": 1\n  "b": 2\n}');
    expect(result).toMatchObject({ line: 3, column: 3 });
    expect(result.message).toContain('expected "," or "}"');
  });

  it.each([
    ['', 'expected a value, found end of input'],
    ['01', 'invalid number'],
    ['"\\x"', 'invalid escape'],
    ['"a\tb"', 'control character U+0009'],
    ['{"a":1} x', 'unexpected data after the JSON document'],
    ["{'a':1}", 'expected a key in double quotes'],
    ['[NaN]', 'expected a value'],
    ['"abc', 'unterminated string'],
    ['{"a" 1}', 'expected ":"'],
  ])('P4: invalid JSON %j is an error saying %s', (text, phrase) => {
    expect(failure(text).message).toContain(phrase);
  });

  it('P4: a leading byte-order mark is accepted and reported', () => {
    expect(parseJson('\uFEFF{"x":1}', 'f.json')).toEqual({
      ok: true,
      value: { x: 1 },
      bom: true,
      duplicates: [],
    });
  });

  it('P4: a byte-order mark does not shift the reported column', () => {
    expect(failure('\uFEFF{"x":1,}')).toMatchObject({ line: 1, column: 8 });
  });

  it('P4: nesting deeper than the cap is an error, never a stack overflow', () => {
    expect(failure('['.repeat(100_000) + ']'.repeat(100_000)).message).toContain('nesting deeper');
    expect(parseJson('['.repeat(200) + ']'.repeat(200), 'f.json').ok).toBe(true);
  });

  it('P4: the strict parser agrees with JSON.parse on what is valid', () => {
    const samples = [
      '1',
      '-0',
      '1e5',
      '1E+2',
      '"\\ud800"',
      '[]',
      '{}',
      ' \n\t{"a" : [ ] } ',
      'true',
    ];
    for (const text of samples)
      expect(parseStrict(text)).toEqual({ ok: true, value: JSON.parse(text), duplicates: [] });
    for (const text of ['+1', '.5', '1.', 'tru', '[,]', '{,}', '"\\u12"', '\u00a0 1']) {
      expect(() => JSON.parse(text)).toThrow();
      expect(parseStrict(text).ok).toBe(false);
    }
  });

  it('P4: a 1 MB document parses in a few milliseconds, within 4x JSON.parse of the same text', () => {
    const big = JSON.stringify(
      Array.from({ length: 10_000 }, (_, i) => ({
        id: i,
        name: `n${i}`,
        tags: ['a', 'b'],
        nested: { x: i, y: 'say \\"hi\\": there', z: null },
      })),
    );
    expect(big.length).toBeGreaterThan(900_000);
    // Against JSON.parse of the same text, measured alternately, so a busy machine slows both.
    let best = Infinity;
    let native = Infinity;
    for (let i = 0; i < 5; i++) {
      let start = performance.now();
      expect(parseJson(big, 'big.json').ok).toBe(true);
      best = Math.min(best, performance.now() - start);
      start = performance.now();
      JSON.parse(big);
      native = Math.min(native, performance.now() - start);
    }
    expect(best).toBeLessThan(Math.max(100, 4 * native));
  });
});
