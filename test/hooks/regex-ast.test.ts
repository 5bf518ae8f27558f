import { describe, expect, it } from 'vitest';
import { parseRegex } from '../../src/hooks/regex/regex-ast.js';

describe('regular-expression parsing for the E4 check', () => {
  it('E4: quantifiers {n}, {n,} and {n,m} are parsed with their bounds and text', () => {
    expect(parseRegex('a{2}')).toMatchObject({ kind: 'repeat', min: 2, max: 2, text: 'a{2}' });
    expect(parseRegex('a{2,}')).toMatchObject({ kind: 'repeat', min: 2, max: Infinity });
    expect(parseRegex('(?:ab){1,3}?')).toMatchObject({
      kind: 'repeat',
      min: 1,
      max: 3,
      text: '(?:ab){1,3}?',
    });
  });

  it('E4: Annex B leniencies are read as RegExp reads them: a lone { or ] is a character', () => {
    expect(parseRegex('a{,5}')).toMatchObject({ kind: 'seq' });
    expect(
      parseRegex('a{,5}').kind === 'seq' && (parseRegex('a{,5}') as { items: unknown[] }).items,
    ).toHaveLength(5);
    expect(parseRegex(']')).toEqual({ kind: 'chars', set: [[93, 93]] });
  });

  it('E4: classes, ranges, negation and class escapes become character sets', () => {
    expect(parseRegex('[a-c_]')).toEqual({
      kind: 'chars',
      set: [
        [95, 95],
        [97, 99],
      ],
    });
    expect(parseRegex('[^\\x00-\\uFFFE]')).toEqual({ kind: 'chars', set: [[0xffff, 0xffff]] });
    expect(parseRegex('[\\d-z]')).toEqual({
      kind: 'chars',
      set: [
        [45, 45],
        [48, 57],
        [122, 122],
      ],
    });
    expect(parseRegex('[]')).toEqual({ kind: 'chars', set: [] });
  });

  it('E4: \\N is a back-reference only when that group exists; lookarounds and assertions read nothing', () => {
    expect(parseRegex('(a)\\1')).toMatchObject({
      kind: 'seq',
      items: [{ kind: 'group' }, { kind: 'backref' }],
    });
    expect(parseRegex('\\1')).toMatchObject({ kind: 'chars' });
    expect(parseRegex('(?<n>a)\\k<n>')).toMatchObject({
      items: [{ kind: 'group' }, { kind: 'backref' }],
    });
    expect(parseRegex('(?<=a)\\b^$')).toMatchObject({
      items: [{ kind: 'look' }, { kind: 'assert' }, { kind: 'assert' }, { kind: 'assert' }],
    });
  });
});
