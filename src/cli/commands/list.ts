import type { Command } from 'commander';
import { globalOptions, storePathsOf, type GlobalOptions } from '../global-options.js';

/** `hookpm list` (cli.md section 3). The common forms are answered by cli/start/fast-path.ts first. */
export function register(program: Command): void {
  program
    .command('list')
    .description('list installed plugins')
    .option(
      '-P, --project',
      "list the project's plugins: hookpm.json, hookpm.lock and what is installed",
    )
    .addHelpText('after', '\nExample:\n  $ hookpm list --json\n  $ hookpm list --project\n')
    .action((flags: { project?: boolean }, command: Command) =>
      flags.project === true
        ? runProjectList(globalOptions(command))
        : runList(globalOptions(command)),
    );
}

/** `hookpm list`, from commander or from the fast path. */
export async function runList(globals: GlobalOptions): Promise<void> {
  const [{ listPlugins }, { printPluginList }] = await Promise.all([
    import('../../ops/plugins/list.js'),
    import('../render/render-list.js'),
  ]);
  printPluginList(await listPlugins(storePathsOf(globals)), globals.json);
}

/** `hookpm list --project` (issue 16 item 1). */
async function runProjectList(globals: GlobalOptions): Promise<void> {
  const [{ listProjectPlugins }, { pluginContextOf }, render] = await Promise.all([
    import('../../ops/project/manage-project.js'),
    import('../plugin-context.js'),
    import('../render/render.js'),
  ]);
  const list = await listProjectPlugins(pluginContextOf(globals), globals.cwd);
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
