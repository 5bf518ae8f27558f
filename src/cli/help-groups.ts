import type { Command } from 'commander';

/**
 * Help groups and completion (docs/reference/commands.md#help-aliases-and-completion): the groups
 * `hookpm --help` lists its commands in, in this order. A command names its group in its own file
 * (`.helpGroup('Inspect')`); arrangeHelp orders the commands by group and gives each heading its
 * colon.
 */
export const HELP_GROUPS = ['Install and manage', 'Inspect', 'Run', 'Publish', 'Admin'] as const;

export type HelpGroup = (typeof HELP_GROUPS)[number];

/**
 * npm-style aliases of the top-level commands (`hookpm i guard`, `hookpm ls`), by command name;
 * read by the command files (`.aliases(ALIASES.install)`) and the fast paths (start/fast-path.ts).
 */
export const ALIASES = {
  install: ['i', 'add'],
  uninstall: ['rm', 'remove', 'un', 'r'],
  update: ['up', 'upgrade'],
  list: ['ls'],
  search: ['s', 'find'],
  info: ['view', 'show'],
} as const satisfies Record<string, readonly string[]>;

/** The group heading commander prints for a command with no group of its own. */
const UNGROUPED = 'Other commands';

/**
 * Orders `program`'s commands by HELP_GROUPS (a command in none goes last, under "Other
 * commands") and turns each group name into its heading (`Inspect:`). Call once every command is
 * registered; commander lists groups in the order their first command comes.
 */
export function arrangeHelp(program: Command): void {
  const rank = (command: Command): number => {
    const at = (HELP_GROUPS as readonly string[]).indexOf(command.helpGroup().replace(/:$/, ''));
    return at === -1 ? HELP_GROUPS.length : at;
  };
  const ordered = [...program.commands].sort((a, b) => rank(a) - rank(b));
  (program.commands as Command[]).splice(0, program.commands.length, ...ordered);
  // `help [command]` among the Admin commands rather than under a heading of its own.
  program.addHelpCommand(
    program
      .createCommand('help')
      .argument('[command]')
      .description('display help for command')
      .helpOption(false)
      .helpGroup('Admin:'),
  );
  for (const command of program.commands) {
    const group = command.helpGroup() === '' ? UNGROUPED : command.helpGroup();
    command.helpGroup(group.endsWith(':') ? group : `${group}:`);
  }
}
