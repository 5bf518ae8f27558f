/** Text within U+0000..U+007F. */
const ASCII = /^[\x00-\x7f]*$/;

/**
 * A test for text made only of word characters (letters, digits and marks of any script, `_`),
 * whitespace and the characters of `punctuation` (written as they go inside a character class).
 * All-ASCII text, the usual case, is checked without the Unicode property classes: building and
 * first running one costs about 0.5 ms of a command's start (bench/install.bench.mjs). For such
 * text the two patterns accept exactly the same strings (\p{L}, \p{N} and \p{M} meet ASCII only in
 * A-Z, a-z and 0-9), so the answer never depends on which one ran.
 */
export function wordTextTest(punctuation: string): (text: string) => boolean {
  const ascii = new RegExp(`^[A-Za-z0-9_\\s${punctuation}]+$`);
  let unicode: RegExp | undefined;
  return (text) =>
    ASCII.test(text)
      ? ascii.test(text)
      : (unicode ??= new RegExp(`^[\\p{L}\\p{N}\\p{M}_\\s${punctuation}]+$`, 'u')).test(text);
}
