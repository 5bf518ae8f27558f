import type { Command } from 'commander';
import { globalOptions } from '../global-options.js';
import { printJson, printLine } from '../render/render.js';

/**
 * `hookpm policy` (docs/reference/rules/policy.md#a17): the administrator's policy in force and
 * where it comes from (HOOKPM_POLICY_FILE, or the platform's location), or why its file cannot be
 * used. Exit 1 when the file cannot be used (hookpm then fails closed, A11), else 0.
 */
export function register(program: Command): void {
  program
    .command('policy')
    .helpGroup('Admin')
    .description("show the administrator's policy in force and the file it comes from")
    .addHelpText('after', '\nExample:\n  $ hookpm policy\n  $ hookpm policy --json\n')
    .action(async (_flags: unknown, command: Command) => {
      const { json } = globalOptions(command);
      const { readPolicyFile } = await import('../../store/policy-file.js');
      const inForce = readPolicyFile(process.env);
      if (json) printJson({ ...inForce });
      else {
        const { formatPolicy } = await import('../render/render-policy.js');
        printLine(formatPolicy(inForce));
      }
      process.exitCode = inForce.status === 'invalid' ? 1 : 0;
    });
}
