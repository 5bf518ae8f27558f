import type { Command } from 'commander';
import { globalOptions } from '../global-options.js';
import { createOperationContext } from '../operation-context.js';
import { escapeControl, printJson, printLine } from '../render/render.js';

/**
 * `hookpm rollback <name>` (docs/reference/commands.md#rollback): back to the version consented
 * before the last update, from the store, without the network.
 */
export function register(program: Command): void {
  program
    .command('rollback')
    .helpGroup('Install and manage')
    .description(
      'return a plugin to the version it ran before its last update (from the store, no network)',
    )
    .argument('<name>', 'plugin name or id (name@registry)')
    .addHelpText(
      'after',
      '\nExample:\n  $ hookpm rollback guard\n  $ hookpm rollback guard --offline --json\n',
    )
    .action(async (name: string, _flags: unknown, command: Command) => {
      const globals = globalOptions(command);
      const { rollbackPlugin } = await import('../../ops/plugins/rollback.js');
      const result = await rollbackPlugin(createOperationContext(globals).ctx, { name });
      if (globals.json) return printJson(result);
      printLine(
        escapeControl(
          `rolled back ${result.id} from ${result.from} to ${result.to}${result.enabled ? '' : ' (disabled)'}`,
        ),
      );
    });
}
