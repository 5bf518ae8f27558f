import type { Command } from 'commander';
import { globalOptions } from '../global-options.js';
import { pluginContextOf } from '../plugin-context.js';
import { escapeControl, printJson, printLine } from '../render/render.js';

/** `hookpm enable <name>` and `hookpm disable <name>` (plugins.md Q4, V3). */
export function register(program: Command): void {
  program
    .command('enable')
    .description("consent to a plugin's hooks (shows the review and asks, or --yes) and enable it")
    .argument('<name>', 'plugin name or id (name@registry)')
    .addHelpText('after', '\nExample:\n  $ hookpm review guard\n  $ hookpm enable guard --yes\n')
    .action(async (name: string, _flags: unknown, command: Command) => {
      const globals = globalOptions(command);
      const { enablePlugin } = await import('../../ops/plugins/enable.js');
      const result = await enablePlugin(pluginContextOf(globals), { name, yes: globals.yes });
      if (globals.json) return printJson(result);
      printLine(
        escapeControl(
          `${result.changed ? 'enabled' : 'already enabled'} ${result.id} ${result.version}; events: ${result.events.join(', ') || 'none'}`,
        ),
      );
    });
  program
    .command('disable')
    .description("stop a plugin's hooks from running (consent and data are kept)")
    .argument('<name>', 'plugin name or id (name@registry)')
    .addHelpText('after', '\nExample:\n  $ hookpm disable guard\n')
    .action(async (name: string, _flags: unknown, command: Command) => {
      const globals = globalOptions(command);
      const { disablePlugin } = await import('../../ops/plugins/disable.js');
      const result = await disablePlugin(pluginContextOf(globals), { name });
      if (globals.json) return printJson(result);
      printLine(escapeControl(`${result.changed ? 'disabled' : 'already disabled'} ${result.id}`));
    });
}
