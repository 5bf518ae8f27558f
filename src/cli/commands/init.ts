import type { Command } from 'commander';
import { resolve } from 'node:path';
import { EVENT_NAMES } from '../../hooks/events.js';
import { eventArgument } from '../event-argument.js';
import { globalOptions } from '../global-options.js';
import { escapeControl, printJson, printLine } from '../render/render.js';
import { shellWord } from '../../text/shell-word.js';

interface InitFlags {
  event: string;
  name?: string;
  existing?: boolean;
}

/** `hookpm init [dir]`: a new plugin that validates and packs as it is (docs/guides/writing-plugins.md). */
export function register(program: Command): void {
  program
    .command('init')
    .helpGroup('Publish')
    .description('create a new plugin: manifest, hooks.json with one example handler, its script')
    .argument('[dir]', 'the plugin directory, made when missing (default: the working directory)')
    .option(
      '--event <event>',
      `the example handler's event: ${EVENT_NAMES.join(', ')}`,
      'PreToolUse',
    )
    .option('--name <name>', 'the plugin name (default: the directory name)')
    .option('--existing', 'add the files to a directory that is not empty (never overwrites one)')
    .addHelpText(
      'after',
      [
        '',
        'Refuses a directory that is not empty unless --existing; never overwrites a file.',
        '',
        'Example:',
        '  $ hookpm init my-guard && hookpm test my-guard PreToolUse --payload my-guard/payloads/PreToolUse.json',
        '  $ hookpm init notes --event UserPromptSubmit',
        '',
      ].join('\n'),
    )
    .action(async (dir: string | undefined, flags: InitFlags, cmd: Command) => {
      const globals = globalOptions(cmd);
      const { initPlugin } = await import('../../ops/init/init-plugin.js');
      const result = initPlugin({
        dir: resolve(globals.cwd, dir ?? '.'),
        event: eventArgument(flags.event, '--event'),
        ...(flags.name === undefined ? {} : { name: flags.name }),
        existing: flags.existing === true,
      });
      if (globals.json) return printJson(result);
      printLine(`created plugin ${result.name} in ${escapeControl(result.dir)} (${result.event}):`);
      for (const file of result.files) printLine(`  ${file}`);
      // The directory as the user gave it, one shell word, so the line runs as printed.
      const at = dir ?? '.';
      const payload = `${at}/payloads/${result.event}.json`;
      printLine(
        `try it: hookpm test ${escapeControl(shellWord(at))} ${result.event} --payload ${escapeControl(shellWord(payload))}`,
      );
    });
}
