import { Option, type Command } from 'commander';
import { resolve } from 'node:path';
import { HookpmError } from '../../errors.js';
import { resolveStorePaths } from '../../store/paths.js';
import { globalOptions } from '../global-options.js';
import { printJson, printLine } from '../render/render.js';
import { writeText } from '../stdio.js';
import { clip } from '../../text/clip.js';

/**
 * `hookpm completion bash|zsh|fish` (docs/reference/commands.md#help-aliases-and-completion):
 * prints the shell's completion script. The scripts call the hidden form `hookpm completion --list
 * -- <words>`, which prints the candidates for the last word, one a line. With `--json` the script
 * comes in a document (docs/reference/cli-json.md).
 */
export function register(program: Command): void {
  program
    .command('completion')
    .helpGroup('Admin')
    .argument('[shell]')
    // With --list the words of the line follow (`completion --list -- hookpm-words...`).
    .allowExcessArguments(true)
    .addOption(new Option('--list', 'print the candidates for the last of <words>').hideHelp())
    .usage('bash|zsh|fish')
    .description('print a shell completion script (bash, zsh, fish)')
    .addHelpText(
      'after',
      [
        '',
        'Example:',
        '  $ hookpm completion bash > ~/.local/share/bash-completion/completions/hookpm',
        '  $ source <(hookpm completion bash)      # or this in ~/.bashrc',
        '  $ source <(hookpm completion zsh)       # in ~/.zshrc, after compinit',
        '  $ hookpm completion fish > ~/.config/fish/completions/hookpm.fish',
        '',
      ].join('\n'),
    )
    .action(async (shell: string | undefined, flags: { list?: boolean }, command: Command) => {
      const words = command.args.slice(1);
      const { COMPLETION_SCRIPTS, isShell, SHELLS } =
        await import('../completion/completion-scripts.js');
      if (flags.list === true)
        return listCandidates(
          program,
          [...(shell === undefined ? [] : [shell]), ...words],
          command,
        );
      if (shell === undefined || !isShell(shell) || words.length > 0)
        throw new HookpmError(
          'E_USAGE',
          `completion needs one shell: ${SHELLS.join(', ')}${shell === undefined ? '' : ` (not ${JSON.stringify(clip([shell, ...words].join(' ')))})`}`,
          { hint: 'For example, add `source <(hookpm completion bash)` to ~/.bashrc.' },
        );
      if (globalOptions(command).json)
        return printJson({ shell, script: COMPLETION_SCRIPTS[shell] });
      writeText(1, COMPLETION_SCRIPTS[shell]);
    });
}

async function listCandidates(program: Command, words: string[], command: Command): Promise<void> {
  const globals = globalOptions(command);
  const [{ completeWords }, { listPlugins }] = await Promise.all([
    import('../completion/complete-words.js'),
    import('../../ops/plugins/list.js'),
  ]);
  const candidates = await completeWords(program, words.length === 0 ? [''] : words, {
    installed: async (home) => {
      const given = home === undefined ? globals.hookpmHome : resolve(globals.cwd, home);
      const paths = resolveStorePaths({ HOOKPM_HOME: given });
      // A store that cannot be read has nothing to offer; completion never prints an error.
      return (await listPlugins(paths).catch(() => ({ plugins: [] }))).plugins;
    },
  });
  for (const candidate of candidates) printLine(candidate);
}
