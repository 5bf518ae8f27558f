import type { Command } from 'commander';
import { globalOptions } from '../global-options.js';
import { consentEnableMode, createOperationContext } from '../operation-context.js';
import { escapeControl, printErrorLine, printJson, printLine } from '../render/render.js';
import { ALIASES } from '../help-groups.js';
import { relinkClaudeAfter } from '../relink-claude.js';

interface UpdateFlags {
  dryRun?: boolean;
  allowDowngrade?: boolean;
  includePrerelease?: boolean;
  project?: boolean;
  check?: boolean;
}

/** `hookpm update [name...]` (docs/reference/rules/cli.md#commands; plugins.md Q5). */
export function register(program: Command): void {
  program
    .command('update')
    .aliases(ALIASES.update)
    .helpGroup('Install and manage')
    .description(
      'update plugins to the newest version in their range; a widened surface waits for your consent',
    )
    .argument('[name...]', 'plugin names or ids (default: every installed plugin)')
    .option('--dry-run', 'show the plan (versions, surface diff, files); change nothing')
    .option('--allow-downgrade', 'follow a registry whose index moved backwards')
    .option('--include-prerelease', 'let ranges match prerelease versions')
    .option(
      '--check',
      'refresh the registries and record which plugins have a newer version (announced at the next agent session); install nothing',
    )
    .option(
      '-P, --project',
      "update the project's plugins within hookpm.json's ranges and rewrite hookpm.lock",
    )
    .addHelpText(
      'after',
      '\nExample:\n  $ hookpm update --dry-run\n  $ hookpm update guard --yes\n',
    )
    .action(async (names: string[], flags: UpdateFlags, command: Command) => {
      const globals = globalOptions(command);
      if (flags.project === true) {
        const { runProjectAction } = await import('../project-action.js');
        return runProjectAction(
          {
            kind: 'update',
            names,
            dryRun: flags.dryRun === true,
            allowDowngrade: flags.allowDowngrade === true,
            includePrerelease: flags.includePrerelease === true,
          },
          globals,
        );
      }
      if (flags.check === true) {
        const { checkUpdates } = await import('../../ops/plugins/check-updates.js');
        const { found, notes } = await checkUpdates(
          createOperationContext(globals).ctx,
          globals.cwd,
        );
        for (const note of notes) printErrorLine(escapeControl(note));
        if (globals.json) return printJson({ ...found });
        if (found.plugins.length === 0)
          return printLine('every plugin is on the newest version in its range');
        for (const p of found.plugins)
          printLine(escapeControl(`${p.id} ${p.installed} -> ${p.available}`));
        return;
      }
      const { updatePlugins } = await import('../../ops/plugins/update.js');
      const { ctx, done } = createOperationContext(globals, 'install');
      // Cleared before anything is printed, and when the update fails.
      const result = await updatePlugins(ctx, {
        names,
        cwd: globals.cwd,
        enable: consentEnableMode(ctx),
        dryRun: flags.dryRun === true,
        allowDowngrade: flags.allowDowngrade === true,
        includePrerelease: flags.includePrerelease === true,
      }).finally(done);
      if (flags.dryRun !== true) await relinkClaudeAfter(globals);
      if (globals.json) return printJson(result);
      const { printInstallResult } = await import('../render/render-install.js');
      printInstallResult(result);
      for (const s of result.skipped)
        printErrorLine(escapeControl(`${s.reason === 'backwards' ? 'warning: ' : ''}${s.message}`));
    });
}
