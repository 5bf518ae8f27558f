/**
 * The subcommands of a Bash command line, as Claude Code's `if` rules read it (engine.md F2):
 * the line is cut at the control operators `&&`, `||`, `;`, `|`, `&` and newlines outside quotes,
 * and at the parentheses and braces of subshells and groups; the text of each command
 * substitution (`$(...)`, backquotes, also inside double quotes) is read as a command line too.
 * Each part loses its leading `NAME=value` assignments, `!` and shell keywords (`then`, `do`, ...),
 * and is given again without its redirections (`> out`, `2>&1`) and again from each word after a
 * process wrapper (`timeout 5 git push` holds `git push`), so `ls && git push`,
 * `FOO=bar git push` and `sudo git push` all hold a `git push` subcommand. Quotes (`'...'`,
 * `"..."`) and a backslash keep an operator inside them from cutting; outside quotes a
 * backslash-newline is dropped, as bash drops it. This is a reading for deciding whether a handler
 * runs, not a shell parser: a part it gets wrong only makes a handler run more often.
 */
export function bashSubcommands(command: string): string[] {
  // Each distinct part once: `a;a;a;...` or `((((...` is not read again for each repeat.
  const parts = new Set([...cut(command), ...substitutions(command).flatMap(cut)]);
  const all = [...parts].flatMap((part) => {
    const bare = withoutPrefixes(part);
    return [bare, ...afterWrappers(bare)].flatMap((text) => [text, withoutRedirections(text)]);
  });
  return [...new Set(all)].filter((part) => part !== '');
}

/** The line cut at control operators, subshell parentheses and group braces outside quotes. */
function cut(command: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < command.length; i++) {
    const ch = command[i] as string;
    if (quote !== null) {
      current += ch;
      if (ch === '\\' && quote === '"' && i + 1 < command.length) current += command[++i];
      else if (ch === quote) quote = null;
    } else if (ch === '\\' && command[i + 1] === '\n') {
      i += 1; // a backslash-newline joins the two lines
    } else if (ch === '\\' && i + 1 < command.length) {
      current += ch + command[++i];
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      current += ch;
    } else if (ch === '&' && (isAngle(command[i - 1]) || command[i + 1] === '>')) {
      current += ch; // `2>&1`, `&>`, `>&`: a redirection, not an operator
    } else if (';&|\n(){}`'.includes(ch)) {
      parts.push(current);
      current = '';
    } else {
      current += ch;
    }
  }
  parts.push(current);
  return parts;
}

/**
 * Whether `ch` is `<` or `>`. cut reads the line, not `current`: reading a character of a string
 * built by `+=` flattens it, which would make a long part quadratic.
 */
function isAngle(ch: string | undefined): boolean {
  return ch === '<' || ch === '>';
}

/** The innermost texts of `$(...)` and backquotes anywhere in the line, quotes or not. */
function substitutions(command: string): string[] {
  const found: string[] = [];
  for (const match of command.matchAll(/\$\(([^()]*)\)|`([^`]*)`/g)) {
    found.push(match[1] ?? match[2] ?? '');
  }
  return found;
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=(?:'[^']*'|"(?:[^"\\]|\\.)*"|[^\s'"])*(?:\s+|$)/;
const KEYWORD = /^(?:!|then|do|else|elif|if|while|until|time)(?:\s+|$)/;

/** `FOO=1 BAR='a b' git push` and `then ! git push` are `git push`; the part trimmed. */
function withoutPrefixes(part: string): string {
  let text = part.trim().replace(/^\$/, '').trim();
  for (;;) {
    const match = ASSIGNMENT.exec(text) ?? KEYWORD.exec(text);
    if (match === null) return text;
    text = text.slice(match[0].length);
  }
}

/** Commands that run the command their arguments name. */
const WRAPPERS = new Set(['timeout', 'nice', 'nohup', 'stdbuf', 'xargs', 'sudo', 'env']);
const WRAPPERS_ALSO = new Set(['command', 'exec', 'builtin', 'ionice', 'doas', 'time']);

/** How many words after a wrapper may start the command it runs (options, nested wrappers). */
const WRAPPED_WORDS = 32;

/**
 * After a leading wrapper, the text from each later word (so its options, their values and nested
 * wrappers are passed over whatever they are): `timeout -s KILL 5 git push` holds `git push`.
 */
function afterWrappers(part: string): string[] {
  const words = part.split(/\s+/);
  const first = words[0] ?? '';
  if (!WRAPPERS.has(first) && !WRAPPERS_ALSO.has(first)) return [];
  const starts = words.slice(1, 1 + WRAPPED_WORDS).map((_, i) => i + 1);
  return starts.map((start) => withoutPrefixes(words.slice(start).join(' ')));
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
  return part.replace(REDIRECTION, ' ').replace(/\s+/g, ' ').trim();
}
