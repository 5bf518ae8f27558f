import type { Command } from 'commander';
import { globalOptions } from '../global-options.js';

/** `hookpm outdated [--project]` (docs/guides/projects.md). */
export function register(program: Command): void {
  const command = program
    .command('outdated')
    .description(
      'show installed plugins with newer versions: in their range, overall, and whether the hooks they run change',
    )
    .option('-P, --project', "the project's plugins (hookpm.json) instead of the user-wide ones")
    .addHelpText('after', '\nExample:\n  $ hookpm outdated\n  $ hookpm outdated --project --json\n')
    .action(async (flags: { project?: boolean }, command: Command) => {
      const globals = globalOptions(command);
      const [{ listOutdated }, { createOperationContext }, render] = await Promise.all([
        import('../../ops/plugins/outdated.js'),
        import('../operation-context.js'),
        import('../render/render.js'),
      ]);
      const report = await listOutdated(createOperationContext(globals).ctx, {
        project: flags.project === true,
        cwd: globals.cwd,
      });
      if (globals.json) return render.printJson(report);
      const surface = (changes: boolean | null): string =>
        changes === null ? 'unknown' : changes ? 'changes' : 'same';
      const rows = report.plugins.map((p) => [
        p.id,
        p.installed,
        p.wanted,
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
      else render.printLine('no plugins to check');
      for (const note of report.notes) render.printErrorLine(render.escapeControl(note));
    });
  command.helpGroup('Inspect');
}
