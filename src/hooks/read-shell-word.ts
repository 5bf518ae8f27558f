/**
 * The words of a Bash command text as the shell reads them, for the `if` rules' reading of a
 * command line (bash-subcommands.ts, engine.md F2): words end at white space outside quotes, and
 * each word's value has its quotes (`'...'`, `"..."`, `$'...'`) and backslashes removed, so
 * `g"i"t`, `'git'` and `\git` are all `git`. A quote left open runs to the end of the text. Not a
 * shell parser: expansions are left as written. Linear in the text read.
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
  let quote: '"' | "'" | null = null;
  for (; i < text.length; i++) {
    const ch = text[i] as string;
    if (quote === "'") {
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
    } else if (ch === '$' && (text[i + 1] === "'" || text[i + 1] === '"')) {
      // `$'...'` and `$"..."`: quoted like `'...'` and `"..."` (their escapes left as written).
    } else {
      expands ||= isExpansion(text, i);
      value.push(ch);
    }
  }
  return { value: value.join(''), end: i, expands };
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
