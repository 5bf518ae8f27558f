/**
 * The words of a Bash command text as the shell reads them, for the `if` rules' reading of a
 * command line (bash-subcommands.ts, engine.md F2): words end at white space outside quotes, and
 * each word's value has its quotes (`'...'`, `"..."`, `$'...'`, whose escapes are read) and
 * backslashes removed, so `g"i"t`, `'git'`, `$'\x67it'` and `\git` are all `git`. A quote left
 * open runs to the end of the text. Not a shell parser: expansions are left as written. Linear in
 * the text read.
 */

/**
 * A word: its value, the index in the text just past it, and whether the shell expands part of
 * it (a `$NAME`, `${...}`, `$(...)` or backquote outside single quotes), so that its value is
 * known only when the shell runs it.
 */
export interface ShellWord {
  readonly value: string;
  readonly end: number;
  readonly expands: boolean;
}

/** The word starting at or after `from` (white space before it skipped); null past the end. */
export function wordAt(text: string, from: number): ShellWord | null {
  let i = from;
  while (i < text.length && /\s/.test(text[i] as string)) i++;
  if (i >= text.length) return null;
  const value: string[] = [];
  let expands = false;
  let quote: '"' | "'" | "$'" | null = null;
  for (; i < text.length; i++) {
    const ch = text[i] as string;
    if (quote === "$'") {
      if (ch === "'") quote = null;
      else if (ch === '\\') i = ansiCEscape(text, i, value);
      else value.push(ch);
    } else if (quote === "'") {
      if (ch === "'") quote = null;
      else value.push(ch);
    } else if (quote === '"') {
      if (ch === '"') quote = null;
      else if (ch === '\\' && isDoubleQuotedEscape(text[i + 1])) value.push(text[++i] as string);
      else {
        expands ||= isExpansion(text, i);
        value.push(ch);
      }
    } else if (/\s/.test(ch)) {
      break;
    } else if (ch === '\\') {
      if (i + 1 < text.length) value.push(text[++i] as string);
    } else if (ch === '"' || ch === "'") {
      quote = ch;
    } else if (ch === '$' && text[i + 1] === "'") {
      quote = "$'"; // ANSI-C quoting: `$'\x67it'` is `git`
      i++;
    } else if (ch === '$' && text[i + 1] === '"') {
      // `$"..."`: quoted like `"..."`.
    } else {
      expands ||= isExpansion(text, i);
      value.push(ch);
    }
  }
  return { value: value.join(''), end: i, expands };
}

/** The characters bash's `$'...'` gives for `\a`, `\n`, `\'`, ...; a letter not here is kept. */
const ANSI_C_ESCAPES: Readonly<Record<string, string>> = {
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

/** After the backslash: `\047` (1-3 octal digits), `\x27` (1-2 hex), `\u`, `\U` (4, 8 hex). */
const ANSI_C_NUMBER =
  /^(?:([0-7]{1,3})|x([0-9A-Fa-f]{1,2})|u([0-9A-Fa-f]{1,4})|U([0-9A-Fa-f]{1,8}))/;

/**
 * Reads the escape whose backslash is at `i` inside `$'...'` as bash does (`\n`, `\047`,
 * `\x67`, `\u0067`, `\cA`), pushing what it gives to `value`; an escape bash does not know is
 * kept as written. Returns the index of its last character. At most 10 characters read.
 */
function ansiCEscape(text: string, i: number, value: string[]): number {
  const next = text[i + 1];
  if (next === undefined) {
    value.push('\\');
    return i;
  }
  const simple = ANSI_C_ESCAPES[next];
  if (simple !== undefined) {
    value.push(simple);
    return i + 1;
  }
  const number = ANSI_C_NUMBER.exec(text.slice(i + 1, i + 10));
  if (number !== null) {
    const [written, octal, hex = number[3] ?? number[4]] = number;
    const code = octal !== undefined ? parseInt(octal, 8) & 0xff : parseInt(hex ?? '', 16);
    if (code <= 0x10ffff) value.push(String.fromCodePoint(code));
    return i + written.length;
  }
  if (next === 'c' && i + 2 < text.length) {
    value.push(String.fromCharCode(text.charCodeAt(i + 2) & 0x1f));
    return i + 2;
  }
  value.push('\\', next);
  return i + 1;
}

/**
 * Whether the character at `i` starts an expansion: a `$` before a name, `{`, `(`, a digit or a
 * special parameter, or a backquote.
 */
function isExpansion(text: string, i: number): boolean {
  const ch = text[i];
  return ch === '`' || (ch === '$' && /^[A-Za-z_{(0-9@*#?$!-]/.test(text[i + 1] ?? ''));
}

/** Whether a backslash escapes `ch` inside double quotes: `$`, backquote, `"`, `\\`, newline. */
function isDoubleQuotedEscape(ch: string | undefined): boolean {
  return ch !== undefined && '$`"\\\n'.includes(ch);
}

/** Whether `text` has a quote or a backslash, so a word's value may differ from what is written. */
export function hasQuoting(text: string): boolean {
  return /["'\\]/.test(text);
}
