import { describe, expect, it } from 'vitest';
import { wordTextTest } from '../../src/hooks/regex/word-text.js';

/** The patterns the matcher (E2) and `if` rules used before the ASCII shortcut. */
const UNICODE = {
  ',|-': /^[\p{L}\p{N}\p{M}_\s,|-]+$/u,
  ',|*-': /^[\p{L}\p{N}\p{M}_\s,|*-]+$/u,
};

const SAMPLES = [
  '',
  'Bash',
  'Edit|Write',
  'Edit, Write',
  'mcp__server__tool',
  'Bash(git *)',
  '*',
  'a-b',
  'tab\there',
  'line\nbreak',
  '.*',
  'Écrire',
  'ツール',
  'e\u0301',
  '١٢٣',
  'naïve|x',
  'emoji🙂',
  '\u00a0nbsp',
  '\u2028',
  // Every ASCII character alone and next to a letter.
  ...Array.from({ length: 128 }, (_, c) => String.fromCharCode(c)),
  ...Array.from({ length: 128 }, (_, c) => `x${String.fromCharCode(c)}y`),
];

describe('word text (engine.md E2 exact matchers, if rules)', () => {
  for (const [punctuation, pattern] of Object.entries(UNICODE)) {
    it(`E2: the ASCII shortcut accepts exactly what the Unicode pattern for "${punctuation}" accepts`, () => {
      const test = wordTextTest(punctuation);
      for (const sample of SAMPLES)
        expect([sample, test(sample)]).toEqual([sample, pattern.test(sample)]);
    });
  }
});
