import type { Command } from 'commander';
import { resolve } from 'node:path';
import { globalOptions } from '../global-options.js';
import { formatDiagnostic, printJson, printLine } from '../render/render.js';

export function register(program: Command): void {
  program
    .command('validate')
    .helpGroup('Publish')
    .description(
      'check a hooks.json file, a plugin directory, a marketplace or a registry directory',
    )
    .argument('<path>', 'a hooks.json, a plugin or registry directory, or a marketplace')
    .option('--strict', 'treat warnings as errors')
    .addHelpText('after', '\nExample:\n  $ hookpm validate ./hooks/hooks.json --strict --json\n')
    .action(async (path: string, options: { strict?: boolean }, command: Command) => {
      const globals = globalOptions(command);
      const { validate } = await import('../../ops/validate/validate.js');
      // A relative path is taken from --cwd when one is given, else from the process directory.
      const cwdGiven = typeof command.optsWithGlobals().cwd === 'string';
      const target = cwdGiven ? resolve(globals.cwd, path) : path;
      const report = await validate({ path: target, strict: options.strict === true });
      process.exitCode = report.ok ? 0 : 1;
      if (globals.json) return printJson(report);
      for (const d of report.diagnostics) printLine(formatDiagnostic(d));
      const errors = report.diagnostics.filter((d) => d.severity === 'error').length;
      const warnings = report.diagnostics.length - errors;
      const events = report.events.length > 0 ? report.events.join(', ') : 'none';
      const plugins = report.plugins === undefined ? '' : `; plugins: ${report.plugins.length}`;
      printLine(
        `${report.ok ? 'valid' : 'invalid'} ${report.kind}: ${errors} error(s), ${warnings} warning(s); events: ${events}${plugins}`,
      );
    });
}
