import { describe, expect, it } from 'vitest';
import { completeUtf8Length, createOutputCapture } from '../../src/engine/output-capture.js';

describe('createOutputCapture (X7)', () => {
  it('X7: keeps whole chunks under the limit and reports no truncation', () => {
    const capture = createOutputCapture(10);
    capture.push(Buffer.from('hello'));
    capture.push(Buffer.from('world'));
    expect(capture.finish()).toEqual({ text: 'helloworld', truncated: false });
  });

  it('X7: cuts the chunk that crosses the limit and drops every later byte', () => {
    const capture = createOutputCapture(8);
    capture.push(Buffer.from('hello'));
    capture.push(Buffer.from('world'));
    capture.push(Buffer.from('more'));
    expect(capture.finish()).toEqual({ text: 'hellowor', truncated: true });
  });

  it('X7: a character split by the cap is dropped rather than decoded to U+FFFD', () => {
    const capture = createOutputCapture(4);
    capture.push(Buffer.from('ab€c')); // € is 3 bytes: a b [e2 82 ac] c
    expect(capture.finish()).toEqual({ text: 'ab', truncated: true });
  });
});

describe('completeUtf8Length', () => {
  it.each([
    ['ascii', [0x61, 0x62], 2],
    ['complete 2-byte', [0x61, 0xc3, 0xa9], 3],
    ['cut 2-byte', [0x61, 0xc3], 1],
    ['cut 3-byte after 1', [0x61, 0xe2], 1],
    ['cut 3-byte after 2', [0x61, 0xe2, 0x82], 1],
    ['complete 3-byte', [0xe2, 0x82, 0xac], 3],
    ['cut 4-byte after 3', [0x61, 0xf0, 0x9f, 0x98], 1],
    ['complete 4-byte', [0xf0, 0x9f, 0x98, 0x80], 4],
    ['empty', [], 0],
  ])('X7: %s keeps %j up to a character boundary', (_label, bytes, expected) => {
    expect(completeUtf8Length(Uint8Array.from(bytes as number[]))).toBe(expected);
  });
});
