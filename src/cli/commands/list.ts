import type { Command } from 'commander';
import { globalOptions, storePathsOf, type GlobalOptions } from '../global-options.js';
import { ALIASES } from '../help-groups.js';

/** `hookpm list` (cli.md section 3). The common forms are answered by cli/start/fast-path.ts first. */
export function register(program: Command): void {
  program
    .command('list')
    .aliases(ALIASES.list)
    .helpGroup('Install and manage')
    .description('list installed plugins')
    .addHelpText('after', '\nExample:\n  $ hookpm list --json\n')
    .action((_flags: unknown, command: Command) => runList(globalOptions(command)));
}

/** `hookpm list`, from commander or from the fast path. */
export async function runList(globals: GlobalOptions): Promise<void> {
  const [{ listPlugins }, { printPluginList }] = await Promise.all([
    import('../../ops/plugins/list.js'),
    import('../render/render-list.js'),
  ]);
  printPluginList(await listPlugins(storePathsOf(globals)), globals.json);
}
