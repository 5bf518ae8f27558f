import { describe, expect, it } from 'vitest';
import { strictUtf8 } from '../../src/text/strict-utf8.js';

/**
 * engine.md S5 (and every reader of a user's or a plugin's text): bytes that are not UTF-8 are
 * refused, never decoded into replacement characters that a rewrite would then keep.
 */
describe('strictUtf8', () => {
  const bom = Buffer.from([0xef, 0xbb, 0xbf]);

  it('decodes valid UTF-8, multi-byte characters included', () => {
    expect(strictUtf8(Buffer.from('{"a":"é✓𝄞"}'), 'keep')).toBe('{"a":"é✓𝄞"}');
    expect(strictUtf8(new Uint8Array(0), 'drop')).toBe('');
  });

  it.each([
    ['a lone continuation byte', [0x61, 0x80]],
    ['a truncated sequence at the end', [0x61, 0xe2, 0x9c]],
    ['an overlong encoding', [0xc0, 0xaf]],
    ['an encoded surrogate', [0xed, 0xa0, 0x80]],
    ['a byte that never occurs', [0xff]],
  ])('is null for %s, with either treatment of the mark', (_, bytes) => {
    expect(strictUtf8(Buffer.from(bytes), 'keep')).toBeNull();
    expect(strictUtf8(Buffer.from(bytes), 'drop')).toBeNull();
  });

  it('keeps a leading byte order mark as U+FEFF, or drops it', () => {
    const bytes = Buffer.concat([bom, Buffer.from('{}')]);
    expect(strictUtf8(bytes, 'keep')).toBe('\ufeff{}');
    expect(strictUtf8(bytes, 'drop')).toBe('{}');
  });

  it('keeps a mark that is not leading either way', () => {
    const bytes = Buffer.concat([Buffer.from('a'), bom]);
    expect(strictUtf8(bytes, 'keep')).toBe('a\ufeff');
    expect(strictUtf8(bytes, 'drop')).toBe('a\ufeff');
  });
});
