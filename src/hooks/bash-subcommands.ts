import { hasQuoting, wordAt } from './read-shell-word.js';
import { fileName, shellRun, wordsFrom } from './shell-run.js';
import { isWrapper, withoutPrefixes } from './command-prefixes.js';
import { BUILT_WORD, cut, substitutions } from './cut-line.js';
import { afterGitOptions, definesGitAlias } from './git-options.js';

/**
 * The subcommands of a Bash command line, as Claude Code's `if` rules read it (engine.md F2):
 * the line is cut at the control operators `&&`, `||`, `;`, `|`, `&` and newlines outside quotes,
 * and at the parentheses and braces of subshells and groups; the text of each command
 * substitution (`$(...)`, backquotes, also inside double quotes) is read as a command line too.
 * Each part loses its leading `NAME=value` assignments, `!` and shell keywords (`then`, `do`, ...),
 * and is given again without its redirections (`> out`, `2>&1`) and again from each word after a
 * process wrapper (`timeout 5 git push` holds `git push`), so `ls && git push`,
 * `FOO=bar git push` and `sudo git push` all hold a `git push` subcommand. Each part is given
 * again with its first word unquoted and, for a path, by its file name (`"git" push` and
 * `/usr/bin/git push` hold `git push`), git's without git's own options (`git -C x push`), and
 * the command string a shell runs (`bash -c '...'`, `eval ...`) is read as a command line too, up
 * to MAX_NESTED_READS deep. Quotes (`'...'`,
 * `"..."`) and a backslash keep an operator inside them from cutting; outside quotes a
 * backslash-newline is dropped, as bash drops it. This is a reading for deciding whether a handler
 * runs, not a shell parser: a part it gets wrong only makes a handler run more often.
 *
 * null when the line is not read, so that its reading stays bounded: it is longer than
 * MAX_READ_COMMAND, the texts read after its wrappers and the command strings read would pass
 * WRAPPED_READ_BUDGET, or command strings are nested past MAX_NESTED_READS; and when only running
 * it would show what it runs: a shell reads its commands from its input (`echo 'git push' |
 * bash`), or an expansion builds a command word (`$GIT push`, `$(echo git) push`). The caller
 * must then take the rule as holding, so that the handler runs.
 */
export function bashSubcommands(command: string): string[] | null {
  if (command.length > MAX_READ_COMMAND) return null;
  const all: string[] = [];
  if (!readLine(command, { left: WRAPPED_READ_BUDGET }, 0, all)) return null;
  return [...new Set(all)].filter((part) => part !== '');
}

/**
 * Adds the subcommands of `command` to `all`, and those of each command string a shell runs in it
 * (`bash -c '...'`, `eval ...`), `depth` being how many such strings it is read inside; false
 * when the reading passes a bound (the budget, MAX_NESTED_READS), so the caller takes the rule as
 * holding.
 */
function readLine(
  command: string,
  budget: { left: number },
  depth: number,
  all: string[],
): boolean {
  const texts = textsOf(command, budget);
  if (texts === null) return false;
  for (const { text, named } of texts) {
    // A named form is its part read again: its own named forms, words read and command string
    // are the part's (shellRun and everyWordRead read the first word as the shell does).
    if (named) {
      all.push(text, withoutRedirections(text));
      continue;
    }
    for (const form of [text, ...namedForms(text), ...everyWordRead(text)]) {
      all.push(form, withoutRedirections(form));
    }
    // A command word an expansion builds (`$GIT push`; `$(echo git) push`, which cut makes the
    // part BUILT_WORD), a git alias the line defines, or commands a shell reads from its input, are
    // known only when the line runs: the reading cannot be completed.
    if (text === BUILT_WORD || wordAt(text, 0)?.expands || definesGitAlias(text)) return false;
    const run = shellRun(text);
    if (run === null) continue;
    if (run === 'input') return false;
    budget.left -= run.string.length;
    if (budget.left < 0 || depth >= MAX_NESTED_READS) return false;
    if (!readLine(run.string, budget, depth + 1, all)) return false;
  }
  return true;
}

/** A text a part of a line is read as; `named` when it is one of the part's named forms. */
interface PartText {
  text: string;
  named: boolean;
}

/**
 * The texts the parts of the line are read as, in order: for each distinct part, the part
 * without its prefixes and then each of its named forms, each followed by the texts after its
 * wrappers. null when the texts after the wrappers would pass the budget.
 */
function textsOf(command: string, budget: { left: number }): PartText[] | null {
  // Each distinct part once: `a;a;a;...` or `((((...` is not read again for each repeat.
  const parts = new Set([...cut(command), ...substitutions(command).flatMap(cut)]);
  const texts: PartText[] = [];
  for (const part of parts) {
    const bare = withoutPrefixes(part);
    for (const form of [bare, ...namedForms(bare)]) {
      const wrapped = afterWrappers(form, budget);
      if (wrapped === null) return null;
      texts.push({ text: form, named: form !== bare });
      for (const text of wrapped) texts.push({ text, named: false });
    }
  }
  return texts;
}

/**
 * How many command strings inside command strings (`bash -c "eval 'git push'"`) are read; one
 * nested deeper is not read (null).
 */
export const MAX_NESTED_READS = 4;

/** The longest command read, in UTF-16 code units; a longer one is not read (null). */
export const MAX_READ_COMMAND = 100_000;

/**
 * The most code units of text read from the words after a command's wrappers, each of which
 * may start the command and costs the rest of its part, and from the command strings a shell
 * runs, each costing its length; past it the command is not read (null).
 */
export const WRAPPED_READ_BUDGET = 1_000_000;

/** How many words after a wrapper or an option may start the command a wrapper runs. */
const WRAPPED_WORDS = 32;

/**
 * After a leading wrapper, the text from each later word (so its options, their values and nested
 * wrappers are passed over whatever they are): `timeout -s KILL 5 git push` holds `git push`.
 * The words read reach WRAPPED_WORDS past the last wrapper or option (`-x`) read, so a chain of
 * wrappers or options of any length is passed over. Each text read is taken from `budget`; null
 * when it would run out.
 */
function afterWrappers(part: string, budget: { left: number }): string[] | null {
  const words = part.split(/\s+/);
  const first = words[0] ?? '';
  if (!isWrapper(first)) return [];
  const line = words.join(' ');
  const starts: number[] = [];
  let reach = WRAPPED_WORDS;
  let offset = first.length + 1;
  for (let i = 1; i < words.length && i <= reach; i++) {
    budget.left -= line.length - offset;
    if (budget.left < 0) return null;
    starts.push(offset);
    const word = words[i] as string;
    if (isWrapper(word) || word.startsWith('-')) reach = i + WRAPPED_WORDS;
    offset += word.length + 1;
  }
  return starts.map((start) => withoutPrefixes(line.slice(start)));
}

/**
 * The text again with its first word as the shell reads it (`"git" push`, `\git push` and
 * `g"i"t push` are `git push`) and, where that word is a path, by its file name
 * (`/usr/bin/git push` and `./git push` are `git push`); the rest of the text as written; and, for
 * git, without git's own options before its subcommand (`git -C repo push` is `git push`). Only
 * the forms that differ from the text.
 */
function namedForms(text: string): string[] {
  const first = wordAt(text, 0);
  if (first === null) return [];
  const rest = text.slice(first.end);
  const forms: string[] = [];
  if (hasQuoting(text.slice(0, first.end))) forms.push(first.value + rest);
  const name = fileName(first.value);
  if (name !== first.value && name !== '') forms.push(name + rest);
  if (name === 'git') {
    const subcommand = afterGitOptions(text, first.end);
    if (subcommand !== null && subcommand !== first.end) forms.push(`git${text.slice(subcommand)}`);
  }
  return forms;
}

/** The text with every word as the shell reads it (`git "push"` is `git push`), if it differs. */
function everyWordRead(text: string): string[] {
  return hasQuoting(text) ? [wordsFrom(text, 0).join(' ')] : [];
}

/**
 * A redirection. A file descriptor's digits are taken only from the start of a run of digits
 * (the look-behind), and the spaces around are left to withoutRedirections, so a long run of
 * digits or spaces is passed over in linear time, not tried again from each of its characters.
 */
const REDIRECTION =
  /(?<!\d)(?:\d+|&)?(?:>>?|<<?<?|>&|<&)\s*(?:&?\d+-?|'[^']*'|"[^"]*"|[^\s<>&|;]+)?/g;

/** The part without its redirections, spaces run together: `git push > out 2>&1` is `git push`. */
function withoutRedirections(part: string): string {
  return part.replace(REDIRECTION, ' ').replace(SPACES, ' ').trim();
}

/**
 * A run of white space other than one space: replaced by one space, it runs spaces together as
 * `\s+` would, but a text whose words are already one space apart is left as it is, not copied.
 */
const SPACES = /\s{2,}|[^\S ]/g;
