import type { Command } from 'commander';
import { globalOptions } from '../global-options.js';
import { clip } from '../../text/clip.js';

/** `hookpm outdated [--project]` (docs/guides/projects.md). */
export function register(program: Command): void {
  const command = program
    .command('outdated')
    .description(
      'show installed plugins with newer versions: in their range, overall, and whether the hooks they run change',
    )
    .option('-P, --project', "the project's plugins (hookpm.json) instead of the user-wide ones")
    .option('--all', 'every installed plugin, also those with no newer version')
    .addHelpText(
      'after',
      '\nLists the plugins with a newer version and exits 1 when there is one (as `npm outdated`).\n\nExample:\n  $ hookpm outdated\n  $ hookpm outdated --project --json\n',
    )
    .action(async (flags: { project?: boolean; all?: boolean }, command: Command) => {
      const globals = globalOptions(command);
      const [{ listOutdated }, { createOperationContext }, render] = await Promise.all([
        import('../../ops/plugins/outdated.js'),
        import('../operation-context.js'),
        import('../render/render.js'),
      ]);
      const report = await listOutdated(createOperationContext(globals).ctx, {
        project: flags.project === true,
        cwd: globals.cwd,
        all: flags.all === true,
      });
      process.exitCode = report.plugins.some((p) => p.newer) ? 1 : 0;
      if (globals.json) return render.printJson(report);
      const surface = (changes: boolean | null): string =>
        changes === null ? 'unknown' : changes ? 'changes' : 'same';
      const rows = report.plugins.map((p) => [
        p.id,
        p.installed,
        clip(p.wanted),
        p.inRange ?? '-',
        p.latest ?? '-',
        `${surface(p.surfaceChangesInRange)} / ${surface(p.surfaceChangesLatest)}`,
      ]);
      if (rows.length > 0)
        render.printLine(
          render.renderTable(
            ['PLUGIN', 'INSTALLED', 'WANTED', 'IN RANGE', 'LATEST', 'HOOKS (IN RANGE / LATEST)'],
            rows,
          ),
        );
      else render.printLine(emptyLine(report.unchecked.length, flags.all === true));
      for (const note of report.notes) render.printErrorLine(render.escapeControl(note));
    });
  command.helpGroup('Inspect');
}

/** What `outdated` prints with no row: never "up to date" while a plugin could not be checked. */
function emptyLine(unchecked: number, all: boolean): string {
  if (unchecked > 0)
    return `no newer version found; ${unchecked} plugin${unchecked === 1 ? '' : 's'} could not be checked`;
  return all ? 'no plugins to check' : 'everything is up to date';
}
