import type { Command, CommanderError } from 'commander';
import { HookpmError } from '../errors.js';
import { clip } from '../text/clip.js';

const COMMANDS_HINT = 'Run `hookpm help` for the commands.';

/** commander's "(Did you mean x?)", the line it ends a message with. */
const SUGGESTION = /\n\((Did you mean [^\n]*\?)\)$/;

/**
 * A command line commander refused, in hookpm's error style
 * (docs/reference/rules/cli.md#conventions: E_USAGE, exit 2;
 * docs/design/decisions.md#where-the-rules-are-silent): the message without commander's `error: `
 * prefix, its quoted words in double quotes as hookpm's own messages have them, and its "(Did you
 * mean ...?)" moved to the first line of the hint (commander joins it to the message with a
 * newline), and the help of the command that `args` name (commandPath) in the hint.
 */
export function usageErrorOf(
  error: CommanderError,
  program: Command,
  args: readonly string[],
): HookpmError {
  const text = error.message.replace(/^error:\s*/, '');
  // Only commander's own suggestion, its last line, is moved: a word quoted in the message (an
  // argument as given) may hold a newline and text that looks like one.
  const said = SUGGESTION.exec(text);
  const first = said === null ? text : text.slice(0, said.index);
  const message = first.replace(/'([^']*)'/g, (_, word: string) => JSON.stringify(clip(word)));
  const suggestion = said?.[1] ?? '';
  const unknownCommand = error.code === 'commander.unknownCommand';
  const path = commandPath(program, args);
  const help = unknownCommand
    ? COMMANDS_HINT
    : path.length === 0
      ? 'Run `hookpm --help` for the commands and the global options.'
      : `Run \`hookpm ${path.join(' ')} --help\` for the options and an example.`;
  return new HookpmError('E_USAGE', message, {
    commander: error.code,
    suggestions: suggestedNames(suggestion),
    hint: suggestion === '' ? help : `${suggestion}\n${help}`,
  });
}

/** The names in commander's `Did you mean x?` / `Did you mean one of x, y?`; [] without one. */
function suggestedNames(suggestion: string): string[] {
  const names = /^Did you mean (?:one of )?(.+)\?$/.exec(suggestion)?.[1];
  return names === undefined ? [] : names.split(', ').filter((name) => name !== '');
}

/** The (sub)command names `args` start with, skipping options: `['registry', 'add']`. */
function commandPath(program: Command, args: readonly string[]): string[] {
  const path: string[] = [];
  let command = program;
  for (const arg of args) {
    if (arg.startsWith('-')) continue;
    const sub = command.commands.find((c) => c.name() === arg || c.aliases().includes(arg));
    if (sub === undefined) break;
    path.push(sub.name());
    command = sub;
  }
  return path;
}
