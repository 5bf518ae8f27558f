import { diagnostic, type Diagnostic } from '../hooks/diagnostic.js';
import { childPath } from '../hooks/json-path.js';
import type { PluginDocument } from './loaded-plugin.js';

/**
 * Review warnings about handlers whose agents would run different things (README "The consent
 * model"): hookpm runs `argv` when given, else `command` under `/bin/sh -c`; Claude Code runs
 * `command` (with `args` as its exec form, in `shell` when named) and ignores `argv`. So:
 * - `command_argv_differ`: both `command` and `argv` are given and the command, read as the shell
 *   would, is not exactly the argv (another word, a quote that changes one, or anything the shell
 *   would expand or interpret: `$(...)`, backquotes, `$NAME` other than the variables of
 *   plugins.md V2, globs, `~`, redirections, pipes, `;`, `&`, comments);
 * - `ignored_field`: `args` or `shell` is declared; hookpm does not use them.
 */
export function handlerFormWarnings(
  documents: ReadonlyArray<Pick<PluginDocument, 'declared'>>,
): Diagnostic[] {
  const found: Diagnostic[] = [];
  for (const document of documents) {
    for (const d of document.declared) {
      const argv =
        Array.isArray(d.argv) && d.argv.every((a) => typeof a === 'string') ? d.argv : null;
      const command = typeof d.command === 'string' && d.command.trim() !== '' ? d.command : null;
      if (command !== null && argv !== null && !sameWords(shellWords(command), argv)) {
        const message = `command and argv differ: hookpm runs argv ${JSON.stringify(argv)}, while Claude Code runs the command ${JSON.stringify(command)}`;
        found.push(diagnostic('command_argv_differ', 'warning', message, { path: d.path }));
      }
      const runs =
        argv !== null
          ? `argv ${JSON.stringify(argv)}`
          : `the command ${JSON.stringify(d.command)} under /bin/sh`;
      if (d.args !== undefined) {
        const message = `"args" ${JSON.stringify(d.args)} is not used by hookpm, which runs ${runs} without them; Claude Code passes them to the command`;
        found.push(
          diagnostic('ignored_field', 'warning', message, { path: childPath(d.path, 'args') }),
        );
      }
      if (d.shell !== undefined) {
        const message = `"shell" ${JSON.stringify(d.shell)} is not used by hookpm, which runs ${runs}; Claude Code runs the command in that shell`;
        found.push(
          diagnostic('ignored_field', 'warning', message, { path: childPath(d.path, 'shell') }),
        );
      }
    }
  }
  return found;
}

/** plugins.md V2: the variables hookpm substitutes in argv, as the shell expands them. */
const SUBSTITUTED =
  /^\$\{(CLAUDE_PLUGIN_ROOT|PLUGIN_ROOT|CLAUDE_PLUGIN_DATA|PLUGIN_DATA|CLAUDE_PROJECT_DIR)\}/;
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
