// Splits a shell command line into simple commands (arrays of words) the way /bin/sh would see
// them closely enough for policy checks: quotes and backslashes are honoured, `;`, `&&`, `||`,
// `|`, `&`, newlines, `(`, `)`, `$(` and backticks separate commands, and `<` / `>` redirections
// become their own words. Nothing is expanded and nothing is executed.

const SEPARATORS = new Set([';', '&', '|', '\n', '(', ')', '`']);

/** Characters that end a run of plain word characters: each has a meaning of its own. */
const SPECIAL = new Set(["'", '"', '\\', '#', '<', '>', ' ', '\t', '\r', ...SEPARATORS]);

/**
 * The index after the run of characters from `start` on that are not in `stops`. Runs are sliced
 * whole, so a word of a million characters is one copy, not a million.
 */
function runEnd(text, start, stops) {
  let end = start;
  while (end < text.length && !stops.has(text[end])) {
    if (text[end] === '$' && text[end + 1] === '(' && stops === SPECIAL) break;
    end += 1;
  }
  return end;
}

const REDIRECT_CHARS = new Set(['<', '>', '&']);

const DOUBLE_QUOTED_STOPS = new Set(['"', '\\']);

/**
 * Calls `visit` with each simple command of `text`, in order, and stops at the first call that
 * returns something other than null, returning that (null when every call did). Commands are
 * handed over one at a time and never collected, so a line of a million short commands makes no
 * more garbage than it must.
 * @template T
 * @param {string} text
 * @param {(words: string[]) => T | null} visit
 * @returns {T | null}
 */
export function splitCommands(text, visit) {
  let found = null;
  let words = [];
  /** The pieces of the word being read, joined once at its end (never a copy per character). */
  let word = [];
  let inWord = false;
  const endWord = () => {
    if (inWord) words.push(word.length === 1 ? word[0] : word.join(''));
    word = [];
    inWord = false;
  };
  const endCommand = () => {
    endWord();
    if (words.length > 0) found = visit(words);
    words = [];
  };
  for (let i = 0; i < text.length && found === null; i += 1) {
    const c = text[i];
    if (c === "'") {
      const end = text.indexOf("'", i + 1);
      const stop = end === -1 ? text.length : end;
      word.push(text.slice(i + 1, stop));
      inWord = true;
      i = stop;
    } else if (c === '"') {
      i += 1;
      while (i < text.length && text[i] !== '"') {
        if (text[i] === '\\') {
          if (i + 1 < text.length && '"\\$`'.includes(text[i + 1])) i += 1;
          word.push(text[i]);
          i += 1;
        } else {
          const end = runEnd(text, i, DOUBLE_QUOTED_STOPS);
          word.push(text.slice(i, end));
          i = end;
        }
      }
      inWord = true;
    } else if (c === '\\') {
      if (text[i + 1] === '\n') i += 1;
      else if (i + 1 < text.length) {
        word.push(text[i + 1]);
        inWord = true;
        i += 1;
      }
    } else if (c === '$' && text[i + 1] === '(') {
      endCommand();
      i += 1;
    } else if (SEPARATORS.has(c)) {
      endCommand();
    } else if (c === '<' || c === '>') {
      endWord();
      let end = i + 1;
      while (end < text.length && REDIRECT_CHARS.has(text[end])) end += 1;
      words.push(text.slice(i, end));
      i = end - 1;
    } else if (c === ' ' || c === '\t' || c === '\r') {
      endWord();
    } else if (c === '#' && !inWord) {
      const end = text.indexOf('\n', i);
      i = end === -1 ? text.length : end - 1;
    } else {
      const end = runEnd(text, i + 1, SPECIAL);
      word.push(text.slice(i, end));
      inWord = true;
      i = end - 1;
    }
  }
  if (found === null) endCommand();
  return found;
}

const PREFIXES = new Set([
  'then',
  'do',
  'else',
  'elif',
  'if',
  'while',
  'until',
  '!',
  '{',
  '}',
  'time',
]);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;
const WRAPPERS = new Set([
  'sudo',
  'doas',
  'command',
  'builtin',
  'exec',
  'nohup',
  'nice',
  'env',
  'stdbuf',
  'timeout',
]);

/**
 * Drops what runs another command without changing it: keywords, `VAR=value` assignments and
 * wrappers such as sudo, env, nohup, nice, timeout (with their options). One pass over the words
 * (an index, never a copy per word), so a line of a million `sudo` stays linear.
 * @param {string[]} words
 * @returns {string[]}
 */
export function unwrap(words) {
  let i = 0;
  while (i < words.length) {
    const first = words[i];
    if (PREFIXES.has(first) || ASSIGNMENT.test(first)) {
      i += 1;
    } else if (WRAPPERS.has(basename(first))) {
      const name = basename(first);
      i += 1;
      while (i < words.length && (words[i].startsWith('-') || ASSIGNMENT.test(words[i]))) {
        const option = words[i];
        i += 1;
        if (['-u', '-g', '-n', '-C', '-s', '-k'].includes(option) && i < words.length) i += 1;
      }
      if (name === 'timeout' && i < words.length && /^\d/.test(words[i])) i += 1;
      if (name === 'nice' && i < words.length && /^-?\d+$/.test(words[i])) i += 1;
    } else {
      break;
    }
  }
  return i === 0 ? words : words.slice(i);
}

/** Commands nested in `sh -c '...'`, `bash -lc "..."` and `eval ...`, split like the outer line. */
export function nestedScripts(words) {
  const name = basename(words[0] ?? '');
  if (name === 'eval') return [words.slice(1).join(' ')];
  if (!['sh', 'bash', 'zsh', 'dash', 'ksh'].includes(name)) return [];
  for (let i = 1; i < words.length; i += 1) {
    const w = words[i];
    if (isShortOptions(w) && w.includes('c') && words[i + 1] !== undefined) return [words[i + 1]];
  }
  return [];
}

/**
 * Whether `word` is a cluster of short options such as `-lc` or `-rf`. Kept apart from the letter
 * test so no pattern backtracks over a long run of letters.
 */
export function isShortOptions(word) {
  return /^-[a-zA-Z]+$/.test(word);
}

export function basename(word) {
  const slash = word.lastIndexOf('/');
  return slash === -1 ? word : word.slice(slash + 1);
}

/**
 * Calls `visit` with every simple command of a line, unwrapped, each followed by the commands of
 * the `sh -c` scripts it runs (three levels deep), and returns the first result other than null.
 * @template T
 * @param {string} text
 * @param {(words: string[]) => T | null} visit
 * @returns {T | null}
 */
export function eachCommand(text, visit, depth = 0) {
  return splitCommands(text, (raw) => {
    const words = unwrap(raw);
    if (words.length === 0) return null;
    const found = visit(words);
    if (found !== null || depth >= 3) return found;
    for (const script of nestedScripts(words)) {
      const nested = eachCommand(script, visit, depth + 1);
      if (nested !== null) return nested;
    }
    return null;
  });
}
