/**
 * engine.md X3a: Claude Code plugins often write `node ${CLAUDE_PLUGIN_ROOT}/hook.js`, unquoted,
 * which `/bin/sh` splits at every space of the value and globs. Their authors' plugin roots hold
 * none, but hookpm's can (macOS keeps its store under `~/Library/Application Support`), and a
 * project root can. Where the value of a path variable (the plugin variables, CLAUDE_PROJECT_DIR)
 * holds a character the shell would split or glob at, each plain expansion of it outside quotes
 * (`$NAME` or `${NAME}`) is run double-quoted, which only keeps the value one word; elsewhere the
 * command is unchanged. A comment is text to its line's end (its quotes open nothing), and `$$`
 * the process id (a name after it is text). A command the reading below cannot follow safely (a
 * command substitution, backquotes, a here-document, arithmetic) runs exactly as written.
 */
export function quotePathVariables(
  command: string,
  values: Readonly<Record<string, string>>,
): string {
  const names = Object.keys(values).filter((name) => SPLITS.test(values[name] as string));
  if (names.length === 0 || !names.some((name) => command.includes(name))) return command;
  if (UNFOLLOWED.test(command)) return command;
  let out = '';
  let i = 0;
  let quote: '' | '"' = '';
  // Where the last backslash escape ended: a character it escaped ends no word.
  let escaped = -1;
  while (i < command.length) {
    const c = command[i] as string;
    if (c === '\\') {
      out += command.slice(i, i + 2);
      i += 2;
      escaped = i;
    } else if (quote === '"') {
      if (c === '"') quote = '';
      out += c;
      i += 1;
    } else if (c === '"') {
      quote = '"';
      out += c;
      i += 1;
    } else if (c === "'") {
      const end = command.indexOf("'", i + 1);
      const to = end === -1 ? command.length : end + 1;
      out += command.slice(i, to);
      i = to;
    } else if (c === '#' && (i === 0 || (i !== escaped && WORD_ENDS.test(command[i - 1] ?? '')))) {
      // A comment runs to the end of its line; its quotes and expansions are none.
      const end = command.indexOf('\n', i);
      const to = end === -1 ? command.length : end;
      out += command.slice(i, to);
      i = to;
    } else if (command.startsWith('$$', i)) {
      // The shell's process id: a name right after it is literal text, not an expansion.
      out += '$$';
      i += 2;
    } else if (c === '$') {
      const name = expansionAt(command, i, names);
      if (name === null) {
        out += c;
        i += 1;
      } else {
        out += `"${name.text}"`;
        i += name.text.length;
      }
    } else {
      out += c;
      i += 1;
    }
  }
  return out;
}

/** The default IFS (space, tab, newline) and the characters of a glob pattern. */
const SPLITS = /[ \t\n*?[]/;

/** What ends a word outside quotes, so that a `#` after it begins a comment. */
const WORD_ENDS = /[ \t\n;&|()<>]/;

/** Command substitution, backquotes, here-documents, arithmetic: contexts not followed here. */
const UNFOLLOWED = /\$\(|`|<<|\(\(/;

/** `$NAME` (not followed by a name character) or `${NAME}` at `at`, NAME one of `names`. */
function expansionAt(
  command: string,
  at: number,
  names: readonly string[],
): { text: string } | null {
  for (const name of names) {
    const braced = `\${${name}}`;
    if (command.startsWith(braced, at)) return { text: braced };
    const bare = `$${name}`;
    if (command.startsWith(bare, at) && !NAME_CHAR.test(command[at + bare.length] ?? ''))
      return { text: bare };
  }
  return null;
}

const NAME_CHAR = /[A-Za-z0-9_]/;
