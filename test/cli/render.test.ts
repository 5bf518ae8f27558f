import { describe, expect, it } from 'vitest';
import { escapeControl, jsonText, renderTable } from '../../src/cli/render/render.js';

describe('escapeControl', () => {
  it.each([
    ['plain text, unicode é and emoji 🎉', 'plain text, unicode é and emoji 🎉'],
    ['a\nb\tc\rd', 'a\\nb\\tc\\rd'],
    ['\u001b[2J\u001b]0;title\u0007', '\\u001b[2J\\u001b]0;title\\u0007'],
    ['del\u007f c1\u009b', 'del\\u007f c1\\u009b'],
    ['safe\u202egnp.exe', 'safe\\u202egnp.exe'],
    ['line\u2028sep\u2029', 'line\\u2028sep\\u2029'],
    ['rm\u200b -rf\u00ad \ufeff/\u2060x', 'rm\\u200b -rf\\u00ad \\ufeff/\\u2060x'],
    ['zwj\u200d zwnj\u200c', 'zwj\\u200d zwnj\\u200c'],
    ['tag\u{e0041}\u{e007f}', 'tag\\udb40\\udc41\\udb40\\udc7f'],
    ['math \u{1d400} and emoji \u{1f389}', 'math \u{1d400} and emoji \u{1f389}'],
    // Default ignorable code points print as nothing: /usr/bin/tr\u034fue looks like /usr/bin/true.
    ['/usr/bin/tr\u034fue', '/usr/bin/tr\\u034fue'],
    ['fill\u3164 \u115f\u1160 \uffa0', 'fill\\u3164 \\u115f\\u1160 \\uffa0'],
    ['khmer\u17b4 mongolian\u180b', 'khmer\\u17b4 mongolian\\u180b'],
    ['vs\ufe0f vs17\u{e0100}', 'vs\\ufe0f vs17\\udb40\\udd00'],
    ['music\u{1d173} shorthand\u{1bca0}', 'music\\ud834\\udd73 shorthand\\ud82f\\udca0'],
  ])('cli.md section 1: %j is printed with control characters escaped', (input, expected) => {
    expect(escapeControl(input)).toBe(expected);
  });
});

describe('escapeControl and jsonText over every code point', () => {
  it('cli.md section 1: exactly C0, DEL, C1, the line separators, the bidirectional and interlinear controls and the default ignorable code points are escaped', () => {
    const invisible = /\p{Default_Ignorable_Code_Point}/u;
    const wrong: string[] = [];
    // Every code point of the BMP and of the astral blocks that hold default ignorable ones; a
    // sample of the rest.
    const astral = (cp: number): boolean =>
      (cp >= 0x1bc00 && cp <= 0x1bcff) ||
      (cp >= 0x1d100 && cp <= 0x1d1ff) ||
      (cp >= 0xe0000 && cp <= 0xe0fff) ||
      cp % 97 === 0;
    for (let cp = 0; cp <= 0x10ffff; cp += 1) {
      if ((cp >= 0xd800 && cp <= 0xdfff) || (cp > 0xffff && !astral(cp))) continue;
      const char = String.fromCodePoint(cp);
      const listed =
        cp <= 0x1f ||
        (cp >= 0x7f && cp <= 0x9f) ||
        (cp >= 0x2028 && cp <= 0x202e) ||
        (cp >= 0xfff9 && cp <= 0xfffb) ||
        invisible.test(char);
      if ((escapeControl(char) !== char) !== listed) wrong.push(cp.toString(16));
      if (cp > 0x1f && (jsonText(char, 0) !== JSON.stringify(char)) !== listed)
        wrong.push(`json ${cp.toString(16)}`);
    }
    expect(wrong).toEqual([]);
  });
});

describe('renderTable', () => {
  it('aligns columns and escapes every cell', () => {
    expect(renderTable(['ID', 'COMMAND'], [['Stop:0:0', 'echo\u001b[31m']])).toBe(
      'ID        COMMAND\nStop:0:0  echo\\u001b[31m',
    );
  });
});

describe('renderTable of very many rows', () => {
  it('lays out 200,000 rows (a hooks file of as many handlers) as one line each', () => {
    const rows = Array.from({ length: 200_000 }, (_, i) => [`Stop:0:${i}`, 'true']);
    const lines = renderTable(['ID', 'COMMAND'], rows).split('\n');
    expect(lines).toHaveLength(200_001);
    expect(lines[200_000]).toBe('Stop:0:199999  true');
  });
});

describe('jsonText (--json output)', () => {
  it.each([
    ['C1 \u0080 \u009b[2J \u009f', 'C1 \\u0080 \\u009b[2J \\u009f'],
    ['del\u007f', 'del\\u007f'],
    ['safe\u202egnp.exe \u2066x\u2069', 'safe\\u202egnp.exe \\u2066x\\u2069'],
    ['line\u2028sep\u2029', 'line\\u2028sep\\u2029'],
    ['C0 \u001b[31m\n', 'C0 \\u001b[31m\\n'],
    ['plain é 🎉', 'plain é 🎉'],
    ['zero-width \u200b\u200d\u00ad\ufeff', 'zero-width \\u200b\\u200d\\u00ad\\ufeff'],
    ['/usr/bin/tr\u034fue \u3164 \u{e0041}', '/usr/bin/tr\\u034fue \\u3164 \\udb40\\udc41'],
  ])(
    'cli.md section 1: %j is escaped in JSON as in text, and parses back to the same value',
    (input, escaped) => {
      const text = jsonText({ description: input });
      expect(text).toBe(`{\n  "description": "${escaped}"\n}`);
      expect(text).not.toMatch(
        /[\u007f-\u009f\u202a-\u202e\u2028\u2029\u2066-\u2069\p{Default_Ignorable_Code_Point}]/u,
      );
      expect(JSON.parse(text)).toEqual({ description: input });
    },
  );
});
