import type { Command } from 'commander';
import { globalOptions } from '../global-options.js';
import { createInstallProgress } from '../install-progress.js';
import { pluginContextOf } from '../plugin-context.js';
import { printJson } from '../render.js';
import { printInstallResult } from '../render-install.js';

interface InstallFlags {
  enable: boolean;
  force?: boolean;
  dryRun?: boolean;
  includePrerelease?: boolean;
}

/** `hookpm install <spec...>` (cli.md section 2; registry.md sections 4, 7). */
export function register(program: Command): void {
  program
    .command('install')
    .description(
      'install plugins from registries, tarballs or directories; shows the review and asks to enable',
    )
    .argument(
      '<spec...>',
      'name, name@range, name@tag, name@registry[@range], ./dir, ./file.tgz, https://.../x.tgz, npm:pkg[@range]',
    )
    .option('--no-enable', 'install without enabling (no question asked)')
    .option(
      '--force',
      'reinstall even when the same version and files are installed (restores a changed tree)',
    )
    .option('--dry-run', 'show the plan (versions, surface diff, files); change nothing')
    .option('--include-prerelease', 'let ranges match prerelease versions')
    .addHelpText(
      'after',
      '\nExample:\n  $ hookpm install guard@examples --yes\n  $ hookpm install guard@^1.0.0 ./my-plugin ./x.tgz --no-enable --json\n',
    )
    .action(async (specs: string[], flags: InstallFlags, command: Command) => {
      const globals = globalOptions(command);
      const { installPlugins } = await import('../../ops/install.js');
      const progress = createInstallProgress();
      const ctx = pluginContextOf(globals);
      if (progress.onProgress !== undefined) ctx.onProgress = progress.onProgress;
      try {
        const result = await installPlugins(ctx, {
          specs,
          cwd: globals.cwd,
          enable: !flags.enable ? 'no' : globals.yes ? 'yes' : 'ask',
          force: flags.force === true,
          dryRun: flags.dryRun === true,
          offline: globals.offline,
          includePrerelease: flags.includePrerelease === true,
        });
        progress.done();
        if (globals.json) return printJson(result);
        printInstallResult(result);
      } finally {
        progress.done();
      }
    });
}
