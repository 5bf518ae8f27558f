import type { Command } from 'commander';
import { globalOptions, storePathsOf, type GlobalOptions } from '../global-options.js';
import { LIST_OPTIONS } from '../grammar.js';
import { ALIASES } from '../help-groups.js';

/** `hookpm list`'s own options (grammar.ts LIST_OPTIONS). */
export interface ListFlags {
  long?: boolean;
  /** The project's plugins (docs/guides/projects.md). */
  project?: boolean;
  /** Check every tree now (registry.md S32). */
  verify?: boolean;
}

/** `hookpm list` (docs/reference/rules/cli.md#json-shapes). The common forms are answered by cli/start/fast-path.ts first. */
export function register(program: Command): void {
  const list = program
    .command('list')
    .aliases(ALIASES.list)
    .helpGroup('Install and manage')
    .description('list installed plugins')
    .addHelpText(
      'after',
      '\nExample:\n  $ hookpm list --long\n  $ hookpm list --json\n  $ hookpm list --verify\n  $ hookpm list --project\n',
    );
  for (const { flags, description } of LIST_OPTIONS) list.option(flags, description);
  list.action((flags: ListFlags, command: Command) => runList(globalOptions(command), flags));
}

/** `hookpm list`, from commander or from the fast path (`--project`: the project's plugins). */
export async function runList(globals: GlobalOptions, flags: ListFlags = {}): Promise<void> {
  if (flags.project === true) return runProjectList(globals);
  const [{ listPlugins }, { printPluginList }] = await Promise.all([
    import('../../ops/plugins/list.js'),
    import('../render/render-list.js'),
  ]);
  const verify = flags.verify === true;
  printPluginList(await listPlugins(storePathsOf(globals), globals.cwd, { verify }), {
    json: globals.json,
    long: flags.long === true,
    verify,
  });
}

/** `hookpm list --project` (docs/guides/projects.md). */
async function runProjectList(globals: GlobalOptions): Promise<void> {
  const [{ listProjectPlugins }, { createOperationContext }, render] = await Promise.all([
    import('../../ops/project/manage-project.js'),
    import('../operation-context.js'),
    import('../render/render.js'),
  ]);
  const list = await listProjectPlugins(createOperationContext(globals).ctx, globals.cwd);
  if (globals.json) return render.printJson(list);
  if (list.plugins.length === 0) {
    render.printLine(render.escapeControl(`no project plugins in ${list.project}`));
    return;
  }
  const rows = list.plugins.map((p) => [
    p.id,
    p.wanted ?? '-',
    p.locked ?? '-',
    p.installed ?? '-',
    p.active ? 'active' : p.installed === null ? 'not installed (run hookpm ci)' : 'not enabled',
  ]);
  render.printLine(render.renderTable(['PLUGIN', 'WANTED', 'LOCKED', 'INSTALLED', 'STATUS'], rows));
}
