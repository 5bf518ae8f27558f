import type { Command } from 'commander';
import { globalOptions } from '../global-options.js';
import { storePathsOf } from '../global-options.js';

/** `hookpm list` (cli.md section 3). The common forms are answered by cli/start/fast-path.ts first. */
export function register(program: Command): void {
  program
    .command('list')
    .description('list installed plugins')
    .addHelpText('after', '\nExample:\n  $ hookpm list --json\n')
    .action(async (_flags: unknown, command: Command) => {
      const globals = globalOptions(command);
      const [{ listPlugins }, { printPluginList }] = await Promise.all([
        import('../../ops/plugins/list.js'),
        import('../render/render-list.js'),
      ]);
      printPluginList(await listPlugins(storePathsOf(globals)), globals.json);
    });
}
