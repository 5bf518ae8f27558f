import type { CommanderError } from 'commander';
import { HookpmError } from '../errors.js';

const HELP_HINT = 'Run `hookpm help <command>` for the options and an example.';
const COMMANDS_HINT = 'Run `hookpm help` for the commands.';

/**
 * A command line commander refused, in hookpm's error style (cli.md section 1: E_USAGE, exit 2;
 * issue 18 item 4): the message without commander's `error: ` prefix, its quoted words in double
 * quotes as hookpm's own messages have them, and its "(Did you mean ...?)" moved to the first line of
 * the hint (commander joins it to the message with a newline).
 */
export function usageErrorOf(error: CommanderError): HookpmError {
  const [first = '', ...rest] = error.message.replace(/^error:\s*/, '').split('\n');
  const message = first.replace(/'([^'\n]*)'/g, (_, word: string) => JSON.stringify(word));
  const suggestion = rest
    .map((line) => line.trim().replace(/^\((.*)\)$/, '$1'))
    .filter((line) => line !== '')
    .join(' ');
  const unknownCommand = error.code === 'commander.unknownCommand';
  const help = unknownCommand ? COMMANDS_HINT : HELP_HINT;
  return new HookpmError('E_USAGE', message, {
    commander: error.code,
    hint: suggestion === '' ? help : `${suggestion}\n${help}`,
  });
}
