import { diagnostic, type Diagnostic } from '../hooks/diagnostic.js';
import { childPath } from '../hooks/json-path.js';
import type { PluginDocument } from './loaded-plugin.js';
import { PATH_VARIABLES } from './path-variables.js';

/**
 * Review warnings about handlers whose agents would run different things
 * (docs/guides/installing-plugins.md#consent). hookpm runs `argv` when given; Claude Code's exec
 * form `command` + `args` as the program `command` names with `args` as its arguments, without a
 * shell (as Claude Code does); else `command` under `/bin/sh -c`, or `bash -c` for `shell: "bash"`.
 * Claude Code ignores `argv`. So:
 * - `command_argv_differ`: both `command` and `argv` are given and the command, read as the shell
 *   would, is not exactly the argv (another word, a quote that changes one, or anything the shell
 *   would expand or interpret: `$(...)`, backquotes, `$NAME` other than the variables of
 *   plugins.md V2, globs, `~`, redirections, pipes, `;`, `&`, comments);
 * - `ignored_field`: a `shell` beside `argv`, or `args` with a `command`, where hookpm runs the
 *   program directly and no shell is involved. `args` and `shell: "bash"` on their own are run as
 *   declared: no warning.
 */
export function handlerFormWarnings(
  documents: ReadonlyArray<Pick<PluginDocument, 'declared'>>,
): Diagnostic[] {
  const found: Diagnostic[] = [];
  for (const document of documents) {
    for (const d of document.declared) {
      const argv = stringList(d.argv);
      const command = typeof d.command === 'string' && d.command.trim() !== '' ? d.command : null;
      const shell = typeof d.shell === 'string' ? d.shell : 'sh';
      if (command !== null && argv !== null && !sameWords(shellWords(command), argv)) {
        const message = `command and argv differ: hookpm runs argv ${JSON.stringify(argv)}, while Claude Code runs the command ${JSON.stringify(command)} under ${shell}`;
        found.push(diagnostic('command_argv_differ', 'warning', message, { path: d.path }));
      }
      const args = stringList(d.args);
      // A handler with neither argv nor command runs nothing: invalid_config says so.
      if (d.shell === undefined || (argv === null && (args === null || command === null))) continue;
      const runs =
        argv !== null
          ? `argv ${JSON.stringify(argv)} directly`
          : `${JSON.stringify(command)} with args ${JSON.stringify(args)} directly`;
      const message = `"shell" ${JSON.stringify(d.shell)} is not used: hookpm runs ${runs}, without a shell`;
      found.push(
        diagnostic('ignored_field', 'warning', message, { path: childPath(d.path, 'shell') }),
      );
    }
  }
  return found;
}

function stringList(value: unknown): string[] | null {
  return Array.isArray(value) && value.every((a) => typeof a === 'string') ? value : null;
}

/** plugins.md V2: the variables hookpm substitutes in argv, as the shell expands them. */
const SUBSTITUTED = new RegExp(`^\\$\\{(${PATH_VARIABLES.join('|')})\\}`);
const INTERPRETED = new Set(['|', '&', ';', '<', '>', '(', ')', '`', '*', '?', '[', '\n']);

/**
 * The words `/bin/sh -c command` would run, when the command is only words (quoted or not) and
 * V2 variables; null when the shell would interpret anything else.
 */
export function shellWords(command: string): string[] | null {
  const words: string[] = [];
  let word: string | null = null;
  for (let i = 0; i < command.length; i += 1) {
    const c = command[i] as string;
    if (c === ' ' || c === '\t') {
      if (word !== null) words.push(word);
      word = null;
      continue;
    }
    if (word === null && (c === '#' || c === '~')) return null;
    if (INTERPRETED.has(c)) return null;
    if (c === '$') {
      const variable = SUBSTITUTED.exec(command.slice(i));
      if (variable === null) return null;
      word = (word ?? '') + variable[0];
      i += variable[0].length - 1;
    } else if (c === '\\') {
      i += 1;
      if (i >= command.length) return null;
      word = (word ?? '') + command[i];
    } else if (c === "'" || c === '"') {
      const end = command.indexOf(c, i + 1);
      const inner = end < 0 ? null : command.slice(i + 1, end);
      if (inner === null || (c === '"' && /[$`\\]/.test(inner.replace(SUBSTITUTED_ANYWHERE, ''))))
        return null;
      word = (word ?? '') + inner;
      i = end;
    } else word = (word ?? '') + c;
  }
  if (word !== null) words.push(word);
  return words;
}

const SUBSTITUTED_ANYWHERE = new RegExp(SUBSTITUTED.source.slice(1), 'g');

function sameWords(words: readonly string[] | null, argv: readonly string[]): boolean {
  return words !== null && words.length === argv.length && words.every((w, i) => w === argv[i]);
}
