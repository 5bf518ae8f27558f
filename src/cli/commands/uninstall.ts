import type { Command } from 'commander';
import { globalOptions } from '../global-options.js';
import { createOperationContext } from '../operation-context.js';
import { escapeControl, printErrorLine, printJson, printLine } from '../render/render.js';
import { ALIASES } from '../help-groups.js';
import { relinkClaudeAfter } from '../relink-claude.js';

/** `hookpm uninstall <name...> [--keep-data]` (docs/reference/rules/cli.md#commands; plugins.md V3). */
export function register(program: Command): void {
  program
    .command('uninstall')
    .aliases(ALIASES.uninstall)
    .helpGroup('Install and manage')
    .description('remove installed plugins and their data directories')
    .argument('<name...>', 'plugin names or ids (name@registry)')
    .option('--keep-data', "keep each plugin's data directory")
    .option('--dry-run', 'show what would be removed; change nothing')
    .option('-P, --project', "remove them from the project's hookpm.json and hookpm.lock")
    .addHelpText('after', '\nExample:\n  $ hookpm uninstall guard --keep-data\n')
    .action(
      async (
        names: string[],
        flags: { keepData?: boolean; dryRun?: boolean; project?: boolean },
        command: Command,
      ) => {
        const globals = globalOptions(command);
        if (flags.project === true) {
          if (flags.dryRun === true) {
            const { HookpmError } = await import('../../errors.js');
            throw new HookpmError('E_USAGE', '--dry-run is not supported with --project', {
              hint: 'Run `hookpm list --project` to see what the project has; `uninstall --project` removes the plugins from hookpm.json and hookpm.lock.',
            });
          }
          const { runProjectAction } = await import('../project-action.js');
          return runProjectAction(
            { kind: 'uninstall', names, keepData: flags.keepData === true },
            globals,
          );
        }
        const { uninstallPlugins } = await import('../../ops/plugins/uninstall.js');
        const result = await uninstallPlugins(createOperationContext(globals).ctx, {
          names,
          keepData: flags.keepData === true,
          dryRun: flags.dryRun === true,
        });
        if (flags.dryRun !== true) await relinkClaudeAfter(globals);
        if (globals.json) return printJson(result);
        for (const entry of result.uninstalled) {
          printLine(
            escapeControl(
              `${result.dryRun ? 'would uninstall' : 'uninstalled'} ${entry.id} ${entry.version}${keptNote(entry)}`,
            ),
          );
          if (!result.dryRun) continue;
          for (const tree of entry.trees) printLine(escapeControl(`  remove ${tree}`));
          if (entry.dataDir !== null) printLine(escapeControl(`  remove ${entry.dataDir}`));
        }
        if (result.dryRun) printErrorLine('dry run: nothing was changed');
      },
    );
}

/** ` (data kept)`, naming who still uses the data directory when that is why. */
function keptNote(entry: { keptData: boolean; keptFor: readonly string[] }): string {
  if (!entry.keptData) return '';
  if (entry.keptFor.length === 0) return ' (data kept)';
  return ` (data kept: ${entry.keptFor.join(', ')} ${entry.keptFor.length === 1 ? 'uses' : 'use'} it)`;
}
