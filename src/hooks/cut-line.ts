import { wordAt } from './read-shell-word.js';
import { fileName } from './shell-run.js';
import { isWrapper, withoutPrefixes } from './command-prefixes.js';

/**
 * The part cut gives where a command substitution builds a command word (`$(echo git) push`):
 * a command known only when the line runs.
 */
export const BUILT_WORD = '$';

/**
 * The line cut at control operators, subshell parentheses and group braces outside quotes
 * (`'...'`, `"..."`, `$'...'`); the braces of a parameter expansion (`${IFS}`) stay in their
 * word. Where a command substitution (`$(...)`, backquotes) builds the command word, all of it or
 * a part (`$(echo git) push`, `` `echo git` push ``, `gi$(echo t) push`), or may, after a wrapper
 * or eval (`sudo $(which git) push`, `eval $(cat cmds)`), the part BUILT_WORD is given too, which
 * readLine takes as a word known only when the line runs; a substitution in an argument
 * (`echo $(date)`), an assignment (`X=$(date) ls`) or arithmetic (`$(( $(date +%s) - 5 ))`)
 * builds none.
 */
export function cut(command: string): string[] {
  const parts: string[] = [];
  let current = '';
  // `$'` is ANSI-C quoting, in which a backslash escapes a quote (`$'\''` is one word).
  let quote: '"' | "'" | "$'" | null = null;
  let expansions = 0;
  let escaped = -1; // the index of the last character a backslash escaped
  // What the simple command being cut has shown before `current`; for each parenthesis open,
  // whether it is arithmetic or inside arithmetic (`((`, `$((`) and, for a substitution, what
  // its command had shown, which its closing parenthesis restores; the same for a backquote.
  let shown: Shown = 'none';
  const opened: { arithmetic: boolean; outer: Shown | null }[] = [];
  let backquoted: Shown | null = null;
  for (let i = 0; i < command.length; i++) {
    const ch = command[i] as string;
    if (quote !== null) {
      current += ch;
      if (ch === '\\' && quote !== "'" && i + 1 < command.length) current += command[++i];
      else if (ch === quote.at(-1)) quote = null;
    } else if (ch === '\\' && command[i + 1] === '\n') {
      i += 1; // a backslash-newline joins the two lines
    } else if (ch === '\\' && i + 1 < command.length) {
      current += ch + command[++i];
      escaped = i;
    } else if (ch === '"' || ch === "'") {
      quote = ch === "'" && command[i - 1] === '$' && escaped !== i - 1 ? "$'" : ch;
      current += ch;
    } else if (ch === '&' && (isAngle(command[i - 1]) || command[i + 1] === '>')) {
      current += ch; // `2>&1`, `&>`, `>&`: a redirection, not an operator
    } else if ((ch === '{' && command[i - 1] === '$') || (ch === '}' && expansions > 0)) {
      // `${IFS}`, `${GIT:-git}`: a parameter expansion, part of its word, not a group's brace.
      expansions += ch === '{' ? 1 : -1;
      current += ch;
    } else if (';&|\n(){}`'.includes(ch)) {
      let builds = false;
      if (ch === '(') {
        const arithmetic = opened.at(-1)?.arithmetic === true || command[i + 1] === '(';
        let outer: Shown | null = null;
        if (command[i - 1] === '$') {
          current = current.slice(0, -1); // the `$` of `$(`
          const at = atSubstitution(current, shown);
          builds = at.builds && !arithmetic;
          outer = at.shown;
        }
        opened.push({ arithmetic, outer });
        shown = 'none';
      } else if (ch === ')') {
        shown = opened.pop()?.outer ?? 'none';
      } else if (ch === '`' && backquoted === null) {
        const at = atSubstitution(current, shown);
        builds = at.builds;
        backquoted = at.shown;
        shown = 'none';
      } else if (ch === '`') {
        shown = backquoted ?? 'none';
        backquoted = null;
      } else {
        shown = 'none';
      }
      parts.push(current);
      if (builds) parts.push(BUILT_WORD);
      current = '';
    } else {
      current += ch;
    }
  }
  parts.push(current);
  return parts;
}

/**
 * What a simple command has shown so far: no word but assignments and keywords (`none`), its
 * command word, or a wrapper or eval as its command word, after which any word may start the
 * command.
 */
type Shown = 'none' | 'command' | 'wrapper';

/**
 * At a command substitution opening after `before` (the text since the last cut) in a command
 * that has shown `shown`: whether the substitution builds the command word, all of it (` $(`
 * after nothing but assignments and keywords) or a part (glued to the word, `gi$(echo t)`), or
 * may, after a wrapper or eval; and what the command has shown past `before`. Linear in
 * `before`.
 */
function atSubstitution(before: string, shown: Shown): { builds: boolean; shown: Shown } {
  if (shown !== 'none') return { builds: shown === 'wrapper', shown };
  const glued = before !== '' && !/\s$/.test(before);
  const rest = withoutPrefixes(before);
  // Glued to an assignment (`X=$(date)`) it builds a value, not a command word.
  if (rest === '') return { builds: !glued, shown: glued ? 'none' : 'command' };
  if (glued && !/\s/.test(rest)) return { builds: true, shown: 'command' };
  // eval runs its arguments as a command line: each may be a command word too.
  const name = fileName(wordAt(rest, 0)?.value ?? '');
  if (isWrapper(name) || name === 'eval') return { builds: true, shown: 'wrapper' };
  return { builds: false, shown: 'command' };
}

/**
 * Whether `ch` is `<` or `>`. cut reads the line, not `current`: reading a character of a string
 * built by `+=` flattens it, which would make a long part quadratic.
 */
function isAngle(ch: string | undefined): boolean {
  return ch === '<' || ch === '>';
}

/** The innermost texts of `$(...)` and backquotes anywhere in the line, quotes or not. */
export function substitutions(command: string): string[] {
  const found: string[] = [];
  for (const match of command.matchAll(/\$\(([^()]*)\)|`([^`]*)`/g)) {
    found.push(match[1] ?? match[2] ?? '');
  }
  return found;
}
