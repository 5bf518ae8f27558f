import { describe, expect, it } from 'vitest';
import { diffText, splitLines } from '../../src/plugin/text-diff.js';

const text = (...lines: string[]): string => lines.map((l) => `${l}\n`).join('');

describe('diffText (the text of a changed script in a review)', () => {
  it('one changed line: a hunk with three lines of context each side, counts +1 -1', () => {
    const before = text('1', '2', '3', '4', '5', '6', '7', '8', '9');
    const after = text('1', '2', '3', '4', 'five', '6', '7', '8', '9');
    expect(diffText(before, after, { maxLines: 100 })).toEqual({
      added: 1,
      removed: 1,
      lines: ['@@ -2,7 +2,7 @@', ' 2', ' 3', ' 4', '-5', '+five', ' 6', ' 7', ' 8'],
      truncated: false,
    });
  });

  it('an added file is all + lines, a removed file all - lines', () => {
    expect(diffText('', text('a', 'b'), { maxLines: 10 })).toEqual({
      added: 2,
      removed: 0,
      lines: ['@@ -0,0 +1,2 @@', '+a', '+b'],
      truncated: false,
    });
    expect(diffText(text('a'), '', { maxLines: 10 }).lines).toEqual(['@@ -1 +0,0 @@', '-a']);
  });

  it('changes far apart are two hunks; close ones share one', () => {
    const base = Array.from({ length: 30 }, (_, i) => `l${i}`);
    const far = [...base];
    far[2] = 'x';
    far[25] = 'y';
    const two = diffText(text(...base), text(...far), { maxLines: 100 });
    expect(two.lines.filter((l) => l.startsWith('@@'))).toEqual([
      '@@ -1,6 +1,6 @@',
      '@@ -23,7 +23,7 @@',
    ]);
    const near = [...base];
    near[10] = 'x';
    near[15] = 'y';
    const one = diffText(text(...base), text(...near), { maxLines: 100 });
    expect(one.lines.filter((l) => l.startsWith('@@'))).toEqual(['@@ -8,12 +8,12 @@']);
  });

  it('the shortest edit script: an inserted line in the middle is +1 -0', () => {
    const diff = diffText(text('a', 'b', 'c', 'd'), text('a', 'b', 'new', 'c', 'd'), {
      maxLines: 100,
    });
    expect(diff).toMatchObject({ added: 1, removed: 0 });
    expect(diff.lines).toEqual(['@@ -1,4 +1,5 @@', ' a', ' b', '+new', ' c', ' d']);
  });

  it('interleaved edits are counted exactly (Myers)', () => {
    const diff = diffText(
      text('a', 'b', 'c', 'a', 'b', 'b', 'a'),
      text('c', 'b', 'a', 'b', 'a', 'c'),
      {
        maxLines: 100,
      },
    );
    expect(diff.added + diff.removed).toBe(5);
  });

  it('a missing final newline is shown as git shows it', () => {
    expect(diffText('a\n', 'a', { maxLines: 10 }).lines).toEqual([
      '@@ -1 +1 @@',
      '-a',
      '+a',
      '\\ No newline at end of file',
    ]);
  });

  it('bounded: at most maxLines lines, truncated says more were cut', () => {
    const many = Array.from({ length: 500 }, (_, i) => `line ${i}`);
    const diff = diffText('', text(...many), { maxLines: 20 });
    expect(diff).toMatchObject({ added: 500, removed: 0, truncated: true });
    expect(diff.lines).toHaveLength(20);
  });

  it('past maxEdits the middle is shown as removed then added: still a correct diff', () => {
    const a = Array.from({ length: 50 }, (_, i) => `a${i}`);
    const b = Array.from({ length: 50 }, (_, i) => `b${i}`);
    const diff = diffText(text('same', ...a), text('same', ...b), { maxLines: 1000, maxEdits: 10 });
    expect(diff).toMatchObject({ added: 50, removed: 50, truncated: false });
    expect(diff.lines.slice(0, 3)).toEqual(['@@ -1,51 +1,51 @@', ' same', '-a0']);
  });

  it('splitLines keeps each line with its newline; the empty text has none', () => {
    expect(splitLines('')).toEqual([]);
    expect(splitLines('a\nb')).toEqual(['a\n', 'b']);
    expect(splitLines('a\n\n')).toEqual(['a\n', '\n']);
  });
});
