/**
 * git's own options before its subcommand, for the `if` rules' reading of a Bash line
 * (bash-subcommands.ts, engine.md F2): `git -C repo push` runs `git push`, and an alias defined in
 * them (`git -c alias.p=push p`) names a command only running the line shows.
 */
import { wordAt } from './read-shell-word.js';
import { fileName } from './shell-run.js';

/** Whether the text is git defining an alias in its options (`git -c alias.p=push p`). */
export function definesGitAlias(text: string): boolean {
  const first = wordAt(text, 0);
  return (
    first !== null && fileName(first.value) === 'git' && afterGitOptions(text, first.end) === null
  );
}

/**
 * Where git's subcommand starts in `text` (whose first word, ending at `from`, is git): past the
 * options git reads before it (`-C <dir>`, `-c <name>=<value>`, `--git-dir=<dir>`, `--no-pager`,
 * ...), each option's separate value passed over with it. `from` when there is none; null when an
 * option defines an alias (`-c alias.p=push`, `--config-env=alias.p=VAR`), which may name any
 * command, known only when the line runs.
 */
export function afterGitOptions(text: string, from: number): number | null {
  let at = from;
  for (let word = wordAt(text, at); word !== null && word.value.startsWith('-');) {
    at = word.end;
    if (/^--config-env=alias\./i.test(word.value)) return null;
    if (GIT_OPTION_WITH_VALUE.test(word.value)) {
      const value = wordAt(text, at);
      if (/^-c$|^--config-env$/.test(word.value) && /^alias\./i.test(value?.value ?? '')) {
        return null;
      }
      at = value?.end ?? at;
    }
    word = wordAt(text, at);
  }
  return at;
}

/** git's options before its subcommand whose value is the next word. */
const GIT_OPTION_WITH_VALUE =
  /^(?:-C|-c|--git-dir|--work-tree|--namespace|--super-prefix|--config-env|--attr-source)$/;
