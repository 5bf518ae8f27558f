// Splits a shell command line into simple commands (arrays of words) the way /bin/sh would see
// them closely enough for policy checks: quotes and backslashes are honoured, `;`, `&&`, `||`,
// `|`, `&`, newlines, `(`, `)`, `$(` and backticks separate commands, and `<` / `>` redirections
// become their own words. Nothing is expanded and nothing is executed.

const SEPARATORS = new Set([';', '&', '|', '\n', '(', ')', '`']);

/** @returns {string[][]} */
export function splitCommands(text) {
  const commands = [];
  let words = [];
  let word = '';
  let inWord = false;
  const endWord = () => {
    if (inWord) words.push(word);
    word = '';
    inWord = false;
  };
  const endCommand = () => {
    endWord();
    if (words.length > 0) commands.push(words);
    words = [];
  };
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (c === "'") {
      const end = text.indexOf("'", i + 1);
      const stop = end === -1 ? text.length : end;
      word += text.slice(i + 1, stop);
      inWord = true;
      i = stop;
    } else if (c === '"') {
      i += 1;
      while (i < text.length && text[i] !== '"') {
        if (text[i] === '\\' && i + 1 < text.length && '"\\$`'.includes(text[i + 1])) i += 1;
        word += text[i];
        i += 1;
      }
      inWord = true;
    } else if (c === '\\') {
      if (text[i + 1] === '\n') i += 1;
      else if (i + 1 < text.length) {
        word += text[i + 1];
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
      let op = c;
      while (text[i + 1] === '>' || text[i + 1] === '&' || text[i + 1] === '<') {
        op += text[i + 1];
        i += 1;
      }
      words.push(op);
    } else if (c === ' ' || c === '\t' || c === '\r') {
      endWord();
    } else if (c === '#' && !inWord) {
      const end = text.indexOf('\n', i);
      i = end === -1 ? text.length : end - 1;
    } else {
      word += c;
      inWord = true;
    }
  }
  endCommand();
  return commands;
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
 * wrappers such as sudo, env, nohup, nice, timeout (with their options).
 * @param {string[]} words
 * @returns {string[]}
 */
export function unwrap(words) {
  let rest = words;
  for (;;) {
    const first = rest[0];
    if (first === undefined) return rest;
    if (PREFIXES.has(first) || /^[A-Za-z_][A-Za-z0-9_]*=/.test(first)) {
      rest = rest.slice(1);
    } else if (WRAPPERS.has(basename(first))) {
      const name = basename(first);
      rest = rest.slice(1);
      while (
        rest[0] !== undefined &&
        (rest[0].startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(rest[0]))
      ) {
        const option = rest[0];
        rest = rest.slice(1);
        if (['-u', '-g', '-n', '-C', '-s', '-k'].includes(option) && rest[0] !== undefined)
          rest = rest.slice(1);
      }
      if (name === 'timeout' && rest[0] !== undefined && /^\d/.test(rest[0])) rest = rest.slice(1);
      if (name === 'nice' && rest[0] !== undefined && /^-?\d+$/.test(rest[0])) rest = rest.slice(1);
    } else {
      return rest;
    }
  }
}

/** Commands nested in `sh -c '...'`, `bash -lc "..."` and `eval ...`, split like the outer line. */
export function nestedScripts(words) {
  const name = basename(words[0] ?? '');
  if (name === 'eval') return [words.slice(1).join(' ')];
  if (!['sh', 'bash', 'zsh', 'dash', 'ksh'].includes(name)) return [];
  for (let i = 1; i < words.length; i += 1) {
    const w = words[i];
    if (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(w) && words[i + 1] !== undefined) return [words[i + 1]];
  }
  return [];
}

export function basename(word) {
  const slash = word.lastIndexOf('/');
  return slash === -1 ? word : word.slice(slash + 1);
}

/** Every simple command of a line, nested `sh -c` scripts included, unwrapped. */
export function allCommands(text, depth = 0) {
  const out = [];
  for (const raw of splitCommands(text)) {
    const words = unwrap(raw);
    if (words.length === 0) continue;
    out.push(words);
    if (depth < 3)
      for (const script of nestedScripts(words)) out.push(...allCommands(script, depth + 1));
  }
  return out;
}
