import type { Command } from 'commander';
import { globalOptions } from '../global-options.js';
import { storePathsOf } from '../plugin-context.js';
import { printJson, printLine } from '../render.js';

/** `hookpm review <name|dir>` (plugins.md Q3; cli.md section 3). */
export function register(program: Command): void {
  program
    .command('review')
    .description(
      'show the hooks a plugin would run (an installed plugin or a directory), with changes since consent',
    )
    .argument('<spec>', 'an installed plugin name or id, or a plugin directory path (./dir)')
    .addHelpText(
      'after',
      '\nExample:\n  $ hookpm review ./my-plugin\n  $ hookpm review guard --json\n',
    )
    .action(async (spec: string, _flags: unknown, command: Command) => {
      const globals = globalOptions(command);
      const { reviewPlugin } = await import('../../ops/review.js');
      const report = await reviewPlugin(storePathsOf(globals), { target: spec, cwd: globals.cwd });
      if (globals.json) return printJson(report);
      const { renderReview } = await import('../render-review.js');
      printLine(renderReview(report));
    });
}
