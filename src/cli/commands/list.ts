import type { Command } from 'commander';
import { globalOptions, storePathsOf, type GlobalOptions } from '../global-options.js';
import { LIST_OPTIONS } from '../grammar.js';

/** `hookpm list`'s own options (grammar.ts LIST_OPTIONS). */
export interface ListFlags {
  long?: boolean;
}

/** `hookpm list` (cli.md section 3). The common forms are answered by cli/start/fast-path.ts first. */
export function register(program: Command): void {
  const list = program
    .command('list')
    .description('list installed plugins')
    .addHelpText('after', '\nExample:\n  $ hookpm list --long\n  $ hookpm list --json\n');
  for (const { flags, description } of LIST_OPTIONS) list.option(flags, description);
  list.action((flags: ListFlags, command: Command) => runList(globalOptions(command), flags));
}

/** `hookpm list`, from commander or from the fast path. */
export async function runList(globals: GlobalOptions, flags: ListFlags = {}): Promise<void> {
  const [{ listPlugins }, { printPluginList }] = await Promise.all([
    import('../../ops/plugins/list.js'),
    import('../render/render-list.js'),
  ]);
  printPluginList(await listPlugins(storePathsOf(globals)), {
    json: globals.json,
    long: flags.long === true,
  });
}
