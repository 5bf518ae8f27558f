import { describe, expect, it } from 'vitest';
import { findLoopAmbiguity } from '../../src/hooks/regex/loop-ambiguity.js';
import { parseRegex } from '../../src/hooks/regex/regex-ast.js';

function verdict(source: string) {
  return findLoopAmbiguity(parseRegex(source));
}

describe('loop ambiguity (engine.md E4, the general case)', () => {
  it.each([
    '(a+)+',
    '(a*)*',
    '(a|a)*',
    '(\\w+\\s?)+',
    '(?:b|aa?b*)*$',
    '(?:[ab]a?)*$',
    '(?:(?:a?a?a)+ba)+$',
    '(?:ba*a?a?)+$',
    '(a{1,3})+',
    '(.*a)+',
  ])('E4: %s has a loop that reads the same text two ways', (source) => {
    expect(verdict(source)).toBe('ambiguous');
  });

  it.each([
    'mcp__.*',
    '(a|ab)*',
    '(github|gitlab)+',
    '(ab+)+$',
    '(\\d+\\.)+\\d+',
    '(?:x{2})+',
    '^(?:[A-Z][a-z]+)+$',
    '[a-z0-9_-]{3,16}',
    '^Bash$|^mcp__.+__(read|view|cat)(_file|_files)?$',
  ])('E4: %s has no ambiguous loop', (source) => {
    expect(verdict(source)).toBe('unambiguous');
  });

  it('E4: an expression whose automaton is too large to analyse says so instead of answering', () => {
    expect(verdict('(?:.{100}){100}')).toBe('too_complex');
  });
});
