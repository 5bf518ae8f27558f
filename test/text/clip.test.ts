import { describe, expect, it } from 'vitest';
import { clip } from '../../src/text/clip.js';

/** security.md (a 200 KB field): a message quotes at most a bounded prefix of any text. */
describe('clip', () => {
  it('keeps text up to the bound as it is', () => {
    expect(clip('a'.repeat(200))).toBe('a'.repeat(200));
    expect(clip('short', 5)).toBe('short');
  });

  it('cuts longer text to the bound and marks the cut', () => {
    expect(clip('a'.repeat(200_000))).toBe(`${'a'.repeat(200)}...`);
    expect(clip('abcdef', 5)).toBe('abcde...');
  });
});
