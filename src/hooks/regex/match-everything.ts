/**
 * E1: the regular expressions that match every string, read as wildcards (`.*`, `^.*$`, `.*?`,
 * `(.*)`, `(?:.*)`, `^(.*)$`, `[\s\S]*`). A pattern is one when, after taking off any number of
 * `^` anchors at its start, unescaped `$` anchors at its end and parentheses (capturing or `?:`)
 * around the whole of it, what is left is "any character, any number of times" (greedy or lazy).
 * This is a syntactic test on purpose: it recognises the spellings authors write for "everything"
 * (Claude Code treats them as match-all), not every regex that happens to match the empty string.
 */
const ANY_RUN: ReadonlySet<string> = new Set(
  ['.', '[\\s\\S]', '[\\S\\s]', '[\\w\\W]', '[\\W\\w]', '[\\d\\D]', '[\\D\\d]', '[^]'].flatMap(
    (any) => [`${any}*`, `${any}*?`],
  ),
);

export function matchesEverything(source: string): boolean {
  let rest = source;
  for (;;) {
    const inner = unwrapped(rest);
    if (inner === rest) return ANY_RUN.has(rest);
    rest = inner;
  }
}

/** One layer off: a leading `^`, a trailing unescaped `$`, or parentheses around the whole. */
function unwrapped(text: string): string {
  if (text.startsWith('^')) return text.slice(1);
  if (text.endsWith('$') && !escapedAt(text, text.length - 1)) return text.slice(0, -1);
  if (text.startsWith('(') && closingParen(text) === text.length - 1) {
    const body = text.slice(1, -1);
    if (body.startsWith('?:')) return body.slice(2);
    return body.startsWith('?') ? text : body;
  }
  return text;
}

/** True when the character at `index` follows an odd number of backslashes. */
function escapedAt(text: string, index: number): boolean {
  let slashes = 0;
  for (let i = index - 1; i >= 0 && text[i] === '\\'; i--) slashes++;
  return slashes % 2 === 1;
}

/** The index of the parenthesis closing the one at 0 (escapes and classes skipped), or -1. */
function closingParen(text: string): number {
  let depth = 0;
  let inClass = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  return -1;
}
