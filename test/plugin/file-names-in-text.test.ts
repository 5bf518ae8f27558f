/**
 * The names a code file gives documentation files (docs/guides/installing-plugins.md#consent: a
 * documentation file a code file names is code), read in pieces of any size.
 */
import { describe, expect, it } from 'vitest';
import { byteView, scanForNames } from '../../src/plugin/file-names-in-text.js';

/** The names of `wanted` that `text` names, fed in pieces of `size` characters. */
function named(text: string, wanted: string[], size = text.length || 1): string[] {
  const scanner = scanForNames(new Set(wanted.map(byteView)));
  const bytes = Buffer.from(text, 'utf8').toString('latin1');
  for (let at = 0; at < bytes.length; at += size) scanner.feed(bytes.slice(at, at + size));
  scanner.end();
  return [...scanner.found].sort();
}

describe('the names a code file gives documentation files (installing-plugins.md#consent)', () => {
  const WANTED = ['notes.md', 'readme', 'my notes.md', 'é.md'];

  it('a base name as the last part of a path-like word, in any case, a sentence dot dropped', () => {
    expect(named('. "$CLAUDE_PLUGIN_ROOT/docs/NOTES.md"', WANTED)).toEqual(['notes.md']);
    expect(named("readFileSync(join(__dirname, 'Notes.MD'))", WANTED)).toEqual(['notes.md']);
    expect(named('# see README.', WANTED)).toEqual(['readme']);
  });

  it('not a name inside a longer one, nor a name the code computes', () => {
    expect(named('cat NOTES.md.bak; cat MYNOTES.md; cat notes.mdx', WANTED)).toEqual([]);
    expect(named("const f = 'NOTES' + '.md'; for f in *.md; do . $f; done", WANTED)).toEqual([]);
    expect(named('cat READMEs docs/readme-old', WANTED)).toEqual([]);
  });

  it('a name with a space anywhere in the text; a name in UTF-8 as its bytes', () => {
    // Its last word names `Notes.md` too: named more, never less.
    expect(named('. "$DIR/My Notes.md"', WANTED)).toEqual(['my notes.md', 'notes.md']);
    expect(named('cat ./é.md', WANTED)).toEqual([byteView('é.md')]);
  });

  it('pieces of any size find what the whole text finds, across the ends of pieces', () => {
    const text = `${'x '.repeat(50)}. "$DIR/My Notes.md"\ncat docs/NOTES.md\necho README`;
    for (const size of [1, 2, 3, 7, 64])
      expect(named(text, WANTED, size), `${size}`).toEqual(['my notes.md', 'notes.md', 'readme']);
  });

  it('a word longer than a path keeps its tail, where the base name is', () => {
    const text = `${'a/'.repeat(100_000)}notes.md`;
    expect(named(text, WANTED, 1024)).toEqual(['notes.md']);
  });

  it('done() once every wanted name was seen', () => {
    const scanner = scanForNames(new Set(['notes.md']));
    expect(scanner.done()).toBe(false);
    scanner.feed('cat notes.md ');
    expect(scanner.done()).toBe(true);
  });
});
