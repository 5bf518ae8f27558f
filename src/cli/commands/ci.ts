import type { Command } from 'commander';
import { globalOptions } from '../global-options.js';

/** `hookpm ci` (docs/guides/projects.md): installs exactly what the project's hookpm.lock pins. */
export function register(program: Command): void {
  const command = program
    .command('ci')
    .description(
      "install exactly what the project's hookpm.lock pins; fails if hookpm.json and hookpm.lock disagree or bytes differ; writes neither",
    )
    .addHelpText(
      'after',
      '\nExample:\n  $ hookpm ci --yes            (in CI: consent to the locked plugins)\n  $ hookpm ci --offline        (from the tarball cache)\n',
    )
    .action(async (_flags: unknown, command: Command) => {
      const { runProjectAction } = await import('../project-action.js');
      await runProjectAction({ kind: 'ci' }, globalOptions(command));
    });
  command.helpGroup('Install and manage');
}
