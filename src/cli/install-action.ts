import type { GlobalOptions } from './global-options.js';
import { createOperationContext, enableModeOf } from './operation-context.js';
import { printJson } from './render/render.js';
import { relinkClaudeAfter } from './relink-claude.js';

/** The options of `hookpm install` besides the global ones (docs/reference/rules/cli.md#commands). */
export interface InstallFlags {
  /** False with --no-enable. */
  enable: boolean;
  force?: boolean;
  dryRun?: boolean;
  includePrerelease?: boolean;
  forceIntegrityChange?: boolean;
}

/** `hookpm install <spec...>`, from commands/install.ts or cli/start/fast-path.ts. */
export async function runInstall(
  specs: readonly string[],
  flags: InstallFlags,
  globals: GlobalOptions,
): Promise<void> {
  const { installPlugins } = await import('../ops/install/install.js');
  const { ctx, done } = createOperationContext(globals, 'install');
  // Cleared before anything is printed, and when the install fails.
  const result = await installPlugins(ctx, {
    specs,
    cwd: globals.cwd,
    enable: enableModeOf(ctx, flags.enable),
    force: flags.force === true,
    dryRun: flags.dryRun === true,
    includePrerelease: flags.includePrerelease === true,
    acceptIntegrityChange: flags.forceIntegrityChange === true,
  }).finally(done);
  if (flags.dryRun !== true) await relinkClaudeAfter(globals);
  if (globals.json) return printJson(result);
  const { printInstallResult } = await import('./render/render-install.js');
  printInstallResult(result);
}
