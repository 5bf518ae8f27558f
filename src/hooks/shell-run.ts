import { wordAt } from './read-shell-word.js';

/**
 * What a command of a Bash line runs as a command line of its own, for the `if` rules' reading
 * (bash-subcommands.ts, engine.md F2): the command string of `bash -c '...'`, `eval ...` or
 * `env -S '...'` (`string`), or, for a shell that reads its commands from its standard input
 * (`echo 'git push' | bash`, `bash < cmds`, `sh -s`, `sudo -s`) or given `-c` without a command
 * string, `input`: text the line does not show. null when it runs none (any other command, a
 * shell given a script file, `bash --version`).
 */
export type ShellRun = { readonly string: string } | 'input' | null;

/**
 * Shells whose `-c` option runs the command string that follows its options, and `su` and
 * `runuser`, whose `-c` string a shell runs; without `-c` or a script, each reads its commands
 * from its input.
 */
const SHELLS = new Set([
  'sh',
  'bash',
  'rbash',
  'zsh',
  'dash',
  'ksh',
  'ksh93',
  'mksh',
  'oksh',
  'pdksh',
  'ash',
  'yash',
  'posh',
  'csh',
  'tcsh',
  'fish',
  'su',
  'runuser',
]);

/** `su` and `runuser`, whose words that are no options name a user, not a script. */
const SWITCH_USER = new Set(['su', 'runuser']);

/**
 * The ShellRun of `text`, its quotes removed: for `eval`, its arguments joined by spaces; for a
 * shell (SHELLS) given `-c` (alone or among others, `-lc`; su's `--command`), the first word after
 * that option that is no option (nor the value of `-o`, `-O`, `--rcfile`, ...), words before `-c`
 * passed over. A shell without `-c` reads its input unless it is given a script file (its first
 * word that is no option; with `-s`, the script's arguments, and it still reads its input) other
 * than its input (`/dev/stdin`, `<(...)`) or asked for its version or help. For `runuser -u
 * user`, the text after its options as written, which it runs with no shell reading its input.
 * `source` and `.` read their input for such a file (`source <(curl ...)`), and run no command
 * string otherwise. Redirections (`< cmds`, `<<< 'git push'`, `2>&1`) are no words of it.
 */
export function shellRun(text: string): ShellRun {
  const first = wordAt(text, 0);
  if (first === null) return null;
  const name = fileName(first.value);
  if (name === 'eval') return { string: wordsFrom(text, first.end).join(' ') };
  if (name === 'sudo') return sudoShell(text, first.end);
  if (name === 'env') return splitString(text, first.end);
  if (name === 'source' || name === '.') {
    const file = wordAt(text, first.end)?.value ?? '';
    return readsInput(file) ? 'input' : null;
  }
  if (!SHELLS.has(name)) return null;
  let given = false;
  let fromInput = false;
  // runuser's `-u user` (`--user`): its later words are the command it runs, with no shell.
  let direct = false;
  let at = first.end;
  for (let word = wordAt(text, at); word !== null; word = wordAt(text, at)) {
    const start = at;
    const raw = text.slice(at, word.end).trim();
    at = word.end;
    const option = word.value;
    if (name === 'runuser' && !given && /^(?:-u|--user)$|^--user=/.test(option)) {
      direct = true;
      if (!option.includes('=')) at = wordAt(text, at)?.end ?? at;
    } else if (direct && !given && (option === '--' || !option.startsWith('-'))) {
      return { string: text.slice(option === '--' ? at : start).trim() }; // as written
    } else if (REDIRECTION_OPERATOR.test(raw)) {
      // The operator alone (`< cmds`): its file is the next word.
      if (REDIRECTION_OPERATOR_ONLY.test(raw)) at = wordAt(text, at)?.end ?? at;
    } else if (option === '--' || option === '-') {
      // The end of the options (su's `-` is a login); before `-c`, later words are still read.
      if (given) return stringAt(text, at);
    } else if (/^[-+]./.test(option)) {
      if (option.startsWith('--command=')) return { string: option.slice('--command='.length) };
      if (/^-[A-Za-z]*c|^--command$/.test(option)) given = true;
      if (/^--(?:version|help)$/.test(option)) return null;
      if (!SWITCH_USER.has(name) && /^-[A-Za-z]*s/.test(option)) fromInput = true;
      // An option taking a value: the value is passed over.
      if (OPTION_WITH_VALUE.test(option)) at = wordAt(text, at)?.end ?? at;
    } else if (given) {
      return { string: option };
    } else if (!SWITCH_USER.has(name)) {
      return fromInput || readsInput(option) ? 'input' : null; // a script file, with its arguments
    }
  }
  // Without a command string after `-c` (`bash -c $(cat cmds)`, `xargs sh -c`), the string run
  // is not on the line either.
  return 'input';
}

/**
 * sudo's ShellRun: with `-s` or `-i` (`--shell`, `--login`) and no command after its options, a
 * shell reading its input (`input`); a command it runs is read as what follows a wrapper.
 */
function sudoShell(text: string, from: number): ShellRun {
  let shell = false;
  let at = from;
  for (let word = wordAt(text, at); word !== null; word = wordAt(text, at)) {
    at = word.end;
    const option = word.value;
    if (option === '--' || !option.startsWith('-')) return null;
    if (/^-[A-Za-z]*[si]|^--(?:shell|login)$/.test(option)) shell = true;
    if (SUDO_OPTION_WITH_VALUE.test(option)) at = wordAt(text, at)?.end ?? at;
  }
  return shell ? 'input' : null;
}

/** A sudo option whose value is the next word: `-u bob`, `-iu bob`, `--user bob`. */
const SUDO_OPTION_WITH_VALUE =
  /^-[A-Za-z]*[CDgpRrtTUu]$|^--(?:chdir|close-from|group|prompt|chroot|role|type|user)$/;

/**
 * env's ShellRun: the string of `-S` (`--split-string`), which env splits into the command it
 * runs, read as a command line; null without one.
 */
function splitString(text: string, from: number): ShellRun {
  let at = from;
  for (let word = wordAt(text, at); word !== null; word = wordAt(text, at)) {
    at = word.end;
    const option = word.value;
    const split = /^(?:-[iv0]*S|--split-string(?:=|$))/.exec(option);
    if (split !== null && split[0].length < option.length) {
      return { string: option.slice(split[0].length) };
    }
    if (split !== null) return stringAt(text, at);
    if (!option.startsWith('-') && !option.includes('=')) return null;
    if (/^-[iv0]*[uC]$|^--(?:unset|chdir)$/.test(option)) at = wordAt(text, at)?.end ?? at;
  }
  return null;
}

/**
 * Whether a script file is the shell's input (`/dev/stdin`, `/dev/fd/0`, `/proc/self/fd/0`; any
 * descriptor, which the line may redirect) or a process substitution (`<(curl ...)`, which cut
 * leaves as `<`).
 */
function readsInput(file: string): boolean {
  return /^\/dev\/(?:stdin|fd\/\d+)$|^\/proc\/[^/]+\/fd\/\d+$|^</.test(file);
}

function stringAt(text: string, at: number): ShellRun {
  const word = wordAt(text, at);
  return word === null ? 'input' : { string: word.value };
}

/** A shell option whose value is the next word: `-o pipefail`, `+O extglob`, `--rcfile f`. */
const OPTION_WITH_VALUE = /^[-+][A-Za-z]*[oO]$|^--(?:rcfile|init-file)$/;

/** A word that is a redirection (`<`, `<<'EOF'`, `<<<`, `2>&1`, `&>out`), as written. */
const REDIRECTION_OPERATOR = /^(?:\d+|&)?(?:<<?<?|>>?|<&|>&|&>>?)/;

/** A redirection operator without its file or descriptor, which is then the next word. */
const REDIRECTION_OPERATOR_ONLY = /^(?:\d+|&)?(?:<<?<?|>>?|<&|>&|&>>?)$/;

/** The values of the words of the text from `from`. */
export function wordsFrom(text: string, from: number): string[] {
  const words: string[] = [];
  for (let word = wordAt(text, from); word !== null; word = wordAt(text, word.end)) {
    words.push(word.value);
  }
  return words;
}

/** The last segment of a path, `git` for `/usr/bin/git`; a word without `/` as it is. */
export function fileName(word: string): string {
  return word.slice(word.lastIndexOf('/') + 1);
}
