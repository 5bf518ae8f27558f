import type { Command } from 'commander';
import { globalOptions, type GlobalOptions } from '../global-options.js';
import { INSTALL_OPTIONS } from '../grammar.js';
import { runInstall, type InstallFlags } from '../install-action.js';
import { ALIASES } from '../help-groups.js';

/**
 * `hookpm install <spec...>` (docs/reference/rules/cli.md#commands;
 * docs/reference/rules/registry.md#versions, #install-transaction); cli/start/fast-path.ts answers
 * the common forms first.
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
      '[spec...]',
      'name, name@range, name@tag, name@registry[@range], ./dir, ./file.tgz, https://.../x.tgz, npm:pkg[@range]',
    );
  for (const { flags, description } of INSTALL_OPTIONS) command.option(flags, description);
  command
    .addHelpText(
      'after',
      '\nExample:\n  $ hookpm install guard@examples --yes\n  $ hookpm install guard@^1.0.0 ./my-plugin ./x.tgz --no-enable --json\n  $ hookpm install --project guard@acme@^1.1.0   (records it in hookpm.json and hookpm.lock)\n  $ hookpm install                               (in a project: what hookpm.json lists)\n',
    )
    .action(
      (
        specs: string[],
        flags: InstallFlags & { project?: boolean; link?: boolean },
        command: Command,
      ) => runInstallLine(specs, flags, globalOptions(command)),
    );
}

/**
 * An install line, from commander or the fast path: `--project` and a bare `hookpm install` are
 * the project operations (docs/guides/projects.md), anything else the user-wide install.
 */
export async function runInstallLine(
  specs: readonly string[],
  flags: InstallFlags & { project?: boolean; link?: boolean },
  globals: GlobalOptions,
): Promise<void> {
  if (flags.link === true) return runLinkInstall(specs, flags, globals);
  if (flags.project !== true && specs.length > 0) return runInstall(specs, flags, globals);
  const unsupported = (['force', 'forceIntegrityChange'] as const).find(
    (flag) => flags[flag] === true,
  );
  if (unsupported !== undefined) {
    const { HookpmError } = await import('../../errors.js');
    const flag = `--${unsupported.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
    throw new HookpmError('E_USAGE', `${flag} is not supported for a project install`, {
      hint: 'Project installs follow hookpm.lock; run `hookpm ci` to restore the locked bytes.',
    });
  }
  const { runProjectAction } = await import('../project-action.js');
  return runProjectAction(
    specs.length === 0
      ? { kind: 'install', enable: flags.enable, dryRun: flags.dryRun === true }
      : {
          kind: 'install-specs',
          specs,
          includePrerelease: flags.includePrerelease === true,
          enable: flags.enable,
          dryRun: flags.dryRun === true,
        },
    globals,
  );
}

/**
 * `hookpm install --link <dir>` (docs/reference/rules/plugins.md#d15): one plugin directory, read
 * in place; the flags that copy, plan or defer (`--project`, `--dry-run`, `--force`,
 * `--no-enable`, ...) do not apply to it (E_USAGE).
 */
async function runLinkInstall(
  specs: readonly string[],
  flags: InstallFlags & { project?: boolean },
  globals: GlobalOptions,
): Promise<void> {
  const { HookpmError } = await import('../../errors.js');
  const refused =
    flags.project === true
      ? '--project'
      : flags.dryRun === true
        ? '--dry-run'
        : flags.force === true
          ? '--force'
          : flags.forceIntegrityChange === true
            ? '--force-integrity-change'
            : !flags.enable
              ? '--no-enable'
              : null;
  if (refused !== null)
    throw new HookpmError('E_USAGE', `--link cannot be combined with ${refused}`, {
      hint: 'Link one plugin directory with `hookpm install --link ./dir`.',
    });
  const dir = specs[0];
  if (dir === undefined || specs.length > 1)
    throw new HookpmError('E_USAGE', '--link takes exactly one plugin directory', {
      hint: 'Link one plugin directory with `hookpm install --link ./dir`.',
    });
  const { createOperationContext } = await import('../operation-context.js');
  const { installLinked } = await import('../../ops/install/install-link.js');
  const { escapeControl, printJson, printLine } = await import('../render/render.js');
  const { ctx, done } = createOperationContext(globals, 'install');
  const result = await installLinked(ctx, { dir, cwd: globals.cwd }).finally(done);
  if (globals.json) return printJson(result);
  printLine(
    escapeControl(
      `${result.changed ? 'linked' : 'already linked'} ${result.id} ${result.version} (enabled) from ${result.path}; events: ${result.events.join(', ') || 'none'}`,
    ),
  );
}
