import type { Command, Option } from 'commander';
import { AGENT_IDS } from '../../agents/agent.js';
import { EVENT_NAMES } from '../../hooks/events.js';
import { SHELLS } from './completion-scripts.js';

/** What completion looks up outside the command tree: the installed plugins of a store. */
export interface CompletionSources {
  /** The installed plugins' names and ids; `home` is a `--home` typed on the line, if any. */
  installed: (home: string | undefined) => Promise<Array<{ id: string; name: string }>>;
}

/** Commands whose operands are installed plugins. */
const PLUGIN_OPERANDS = new Set([
  'uninstall',
  'update',
  'rollback',
  'enable',
  'disable',
  'review',
  'info',
]);
/** Commands whose first operand is an event, an agent or a shell. */
const FIRST_OPERANDS: Readonly<Record<string, readonly string[]>> = {
  run: EVENT_NAMES,
  link: AGENT_IDS,
  unlink: AGENT_IDS,
  wire: AGENT_IDS,
  completion: SHELLS,
};
/** Options whose value is an event name. */
const EVENT_OPTIONS = new Set(['--event']);

/**
 * Help groups and completion (docs/reference/commands.md#help-aliases-and-completion): the
 * candidates for the last of `words` (the command line after `hookpm`, the word under the cursor
 * last, maybe empty), by the command tree of `program`: command and subcommand names, the options
 * of the command reached (its own and the global ones), events for `run` and `--event`, agents,
 * shells, and installed plugin names for the commands that take them. Empty where the shell's own
 * completion (file names) fits better, such as a path.
 */
export async function completeWords(
  program: Command,
  words: readonly string[],
  sources: CompletionSources,
): Promise<string[]> {
  const current = words.at(-1) ?? '';
  const { command, operands, valueOf, help } = walk(program, words.slice(0, -1));
  const matching = (candidates: Iterable<string>): string[] =>
    [...new Set(candidates)].filter((c) => c.startsWith(current));
  if (valueOf !== null) return EVENT_OPTIONS.has(valueOf) ? matching(EVENT_NAMES) : [];
  if (current.startsWith('-')) {
    // `--version` is the program's alone; the other program options are global.
    const global = longFlags(program.options).filter(
      (f) => command === program || f !== '--version',
    );
    return matching([...longFlags(command.options), ...global, '--help']);
  }
  const subcommands = command.commands.map((c) => c.name());
  if (help) return operands === 0 ? matching(subcommands) : [];
  if (subcommands.length > 0) return operands === 0 ? matching([...subcommands, 'help']) : [];
  const name = command.name();
  if (command.parent === program) {
    if (operands === 0 && FIRST_OPERANDS[name] !== undefined) return matching(FIRST_OPERANDS[name]);
    if (PLUGIN_OPERANDS.has(name))
      return matching(pluginWords(await sources.installed(homeOf(words))));
  }
  return [];
}

interface Walked {
  /** The command the words reached. */
  command: Command;
  /** Its operands so far (after `help`: the words after it). */
  operands: number;
  /** The option whose value the next word is. */
  valueOf: string | null;
  /** `help` was typed after `command`: its subcommands are the candidates. */
  help: boolean;
}

function walk(program: Command, words: readonly string[]): Walked {
  let command = program;
  let operands = 0;
  let valueOf: string | null = null;
  let help = false;
  for (const word of words) {
    if (valueOf !== null) {
      valueOf = null;
      continue;
    }
    if (word.startsWith('-')) {
      const option = findOption(command, program, word);
      if (option !== undefined && takesValue(option) && !word.includes('='))
        valueOf = option.long ?? word;
      continue;
    }
    const sub = operands === 0 && !help ? findCommand(command, word) : undefined;
    if (word === 'help' && operands === 0 && !help && command.commands.length > 0) help = true;
    else if (sub !== undefined) {
      command = sub;
      operands = 0;
    } else operands += 1;
  }
  return { command, operands, valueOf, help };
}

function findCommand(command: Command, word: string): Command | undefined {
  return command.commands.find((c) => c.name() === word || c.aliases().includes(word));
}

function findOption(command: Command, program: Command, word: string): Option | undefined {
  const flag = word.split('=')[0];
  return [...command.options, ...program.options].find((o) => o.long === flag || o.short === flag);
}

function takesValue(option: Option): boolean {
  return option.required || option.optional;
}

function longFlags(options: readonly Option[]): string[] {
  return options.filter((o) => !o.hidden && o.long !== undefined).map((o) => o.long as string);
}

/** Plugin names, and the ids of names two installed plugins share. */
function pluginWords(plugins: ReadonlyArray<{ id: string; name: string }>): string[] {
  const count = new Map<string, number>();
  for (const p of plugins) count.set(p.name, (count.get(p.name) ?? 0) + 1);
  return plugins.flatMap((p) => ((count.get(p.name) ?? 0) > 1 ? [p.name, p.id] : [p.name]));
}

function homeOf(words: readonly string[]): string | undefined {
  const at = words.indexOf('--home');
  if (at !== -1 && at + 1 < words.length - 1) return words[at + 1];
  return words.find((w) => w.startsWith('--home='))?.slice('--home='.length);
}
