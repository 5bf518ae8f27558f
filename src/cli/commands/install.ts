import type { Command } from 'commander';
import { globalOptions } from '../global-options.js';
import { pluginContextOf } from '../plugin-context.js';
import { escapeControl, printErrorLine, printJson, printLine } from '../render.js';

interface InstallFlags {
  enable: boolean;
  force?: boolean;
  dryRun?: boolean;
}

/** `hookpm install <spec...>` (cli.md section 2; registry.md section 7). */
export function register(program: Command): void {
  program
    .command('install')
    .description(
      'install plugins (today: plugin directories ./dir, ../dir or /abs/dir); shows the review and asks to enable',
    )
    .argument('<spec...>', 'a plugin directory path')
    .option('--no-enable', 'install without enabling (no question asked)')
    .option(
      '--force',
      'reinstall even when the same version and files are installed (restores a changed tree)',
    )
    .option('--dry-run', 'show what would be installed; change nothing')
    .addHelpText(
      'after',
      '\nExample:\n  $ hookpm install ./my-plugin --yes\n  $ hookpm install ./a ./b --no-enable --json\n',
    )
    .action(async (specs: string[], flags: InstallFlags, command: Command) => {
      const globals = globalOptions(command);
      const { installPlugins } = await import('../../ops/install.js');
      const result = await installPlugins(pluginContextOf(globals), {
        specs,
        cwd: globals.cwd,
        enable: !flags.enable ? 'no' : globals.yes ? 'yes' : 'ask',
        force: flags.force === true,
        dryRun: flags.dryRun === true,
      });
      if (globals.json) return printJson(result);
      for (const entry of result.installed) {
        const state = entry.enabled
          ? entry.active
            ? 'enabled'
            : 'enabled, waiting for consent'
          : 'disabled';
        const events = entry.events.length > 0 ? entry.events.join(', ') : 'none';
        printLine(
          escapeControl(
            `${entry.status} ${entry.id} ${entry.version} (${state}); events: ${events}`,
          ),
        );
      }
      for (const note of result.notes) printErrorLine(escapeControl(note));
    });
}
