import type { Command } from 'commander';
import { globalOptions } from '../global-options.js';
import { createOperationContext } from '../operation-context.js';
import { printJson, printLine } from '../render/render.js';

interface ReviewFlags {
  includePrerelease?: boolean;
  project?: boolean;
}

/** `hookpm review <name|dir>` (plugins.md Q3; docs/reference/rules/cli.md#json-shapes). */
export function register(program: Command): void {
  program
    .command('review')
    .helpGroup('Inspect')
    .description(
      'show the hooks a plugin would run (installed, a directory, a registry plugin or a tarball), with changes since consent',
    )
    .argument(
      '<spec>',
      'an installed plugin name or id, a plugin directory (./dir), a registry plugin (name[@registry][@range]), ./file.tgz, https://.../x.tgz or npm:pkg',
    )
    .option('--include-prerelease', 'let ranges match prerelease versions')
    .option(
      '-P, --project',
      "the project's installed plugin, with the consent given there (else from hookpm.json's registries too)",
    )
    .addHelpText(
      'after',
      '\nExample:\n  $ hookpm review ./my-plugin\n  $ hookpm review guard --json\n',
    )
    .action(async (spec: string, flags: ReviewFlags, command: Command) => {
      const globals = globalOptions(command);
      const { reviewAny } = await import('../../ops/review/review-any.js');
      const { projectRecordScope } = await import('../../ops/steps/installed/project-records.js');
      const report = await reviewAny(createOperationContext(globals).ctx, {
        target: spec,
        cwd: globals.cwd,
        includePrerelease: flags.includePrerelease === true,
        ...(flags.project === true ? { scope: await projectRecordScope(globals.cwd) } : {}),
      });
      if (globals.json) return printJson(report);
      const { renderReview } = await import('../render/render-review.js');
      printLine(renderReview(report));
    });
}
