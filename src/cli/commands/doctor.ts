import type { Command } from 'commander';
import { HookpmError } from '../../errors.js';
import { globalOptions } from '../global-options.js';
import { storePathsOf } from '../global-options.js';

/**
 * `hookpm doctor [--fix] [--online]` (docs/reference/rules/cli.md#commands): checks the store,
 * state, lock, fingerprints, leftovers, registries and trust store, and says how to fix what it
 * finds. Exit 0 when no check is an error, 1 otherwise (the report is printed either way, also with
 * --json).
 */
export function register(program: Command): void {
  program
    .command('doctor')
    .helpGroup('Admin')
    .description(
      'check the store, state, lock, installed plugins and registries, and say how to fix problems',
    )
    .option(
      '--fix',
      'collect leftovers of interrupted commands (under the store lock); nothing else is changed',
    )
    .option('--online', 'also fetch each network registry index (otherwise no network access)')
    .addHelpText('after', '\nExample:\n  $ hookpm doctor\n  $ hookpm doctor --fix --json\n')
    .action(async (flags: { fix?: boolean; online?: boolean }, command: Command) => {
      const globals = globalOptions(command);
      if (flags.online === true && globals.offline) {
        throw new HookpmError('E_USAGE', '--online and --offline cannot be used together', {
          hint: 'Drop --offline to let doctor fetch the registry indexes, or drop --online.',
        });
      }
      const [{ runDoctor }, { printDoctorReport }, { currentHookpm }] = await Promise.all([
        import('../../ops/doctor/doctor.js'),
        import('../render/render-doctor.js'),
        import('../../ops/steps/links/hookpm-command.js'),
      ]);
      const links = { cwd: globals.cwd, hookpm: currentHookpm(globals.hookpmHome ?? null) };
      const report = await runDoctor(
        { paths: storePathsOf(globals), userHome: globals.userHome, cwd: globals.cwd, links },
        { fix: flags.fix === true, online: flags.online === true },
      );
      printDoctorReport(report, globals.json);
      process.exitCode = report.ok ? 0 : 1;
    });
}
