/**
 * What stands before a command's own word on a Bash line, for the `if` rules' reading
 * (bash-subcommands.ts, engine.md F2): `NAME=value` assignments, `!` and shell keywords, which
 * withoutPrefixes drops, and the wrappers that run the command their later words name.
 */

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=(?:'[^']*'|"(?:[^"\\]|\\.)*"|[^\s'"])*(?:\s+|$)/;

/**
 * A keyword before a command. `time` with an option (`time -p`) is left, for afterWrappers to
 * read as the wrapper it also is (the time program), passing over its options.
 */
const KEYWORD = /^(?:!|then|do|else|elif|if|while|until|coproc|time(?!\s+-))(?:\s+|$)/;

/** `FOO=1 BAR='a b' git push` and `then ! git push` are `git push`; the part trimmed. */
export function withoutPrefixes(part: string): string {
  let text = part.trim();
  for (;;) {
    const match = ASSIGNMENT.exec(text) ?? KEYWORD.exec(text);
    if (match === null) return text;
    text = text.slice(match[0].length);
  }
}

/** Commands that run the command their arguments name. */
const WRAPPERS = new Set(['timeout', 'nice', 'nohup', 'stdbuf', 'xargs', 'sudo', 'env']);
const WRAPPERS_ALSO = new Set(['command', 'exec', 'builtin', 'ionice', 'doas', 'time', 'busybox']);

/** Whether `word` is a wrapper (WRAPPERS): a command that runs the command its arguments name. */
export function isWrapper(word: string): boolean {
  return WRAPPERS.has(word) || WRAPPERS_ALSO.has(word);
}
