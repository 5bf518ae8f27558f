import type { Command } from 'commander';
import { globalOptions } from '../global-options.js';
import { INSTALL_OPTIONS } from '../grammar.js';
import { runInstall, type InstallFlags } from '../install-action.js';
import { ALIASES } from '../help-groups.js';

/**
 * `hookpm install <spec...>` (cli.md section 2; registry.md sections 4, 7); cli/start/fast-path.ts
 * answers the common forms first.
 */
export function register(program: Command): void {
  const command = program
    .command('install')
    .aliases(ALIASES.install)
    .helpGroup('Install and manage')
    .description(
      'install plugins from registries, tarballs or directories; shows the review and asks to enable',
    )
    .argument(
      '<spec...>',
      'name, name@range, name@tag, name@registry[@range], ./dir, ./file.tgz, https://.../x.tgz, npm:pkg[@range]',
    );
  for (const { flags, description } of INSTALL_OPTIONS) command.option(flags, description);
  command
    .addHelpText(
      'after',
      '\nExample:\n  $ hookpm install guard@examples --yes\n  $ hookpm install guard@^1.0.0 ./my-plugin ./x.tgz --no-enable --json\n',
    )
    .action((specs: string[], flags: InstallFlags, command: Command) =>
      runInstall(specs, flags, globalOptions(command)),
    );
}
