import type { ProjectInstallResult } from '../ops/project/project-result.js';
import type { GlobalOptions } from './global-options.js';
import { createOperationContext, enableModeOf } from './operation-context.js';
import { escapeControl, printErrorLine, printJson, printLine } from './render/render.js';

/** The project operations (docs/guides/projects.md) the install-like commands run. */
export type ProjectAction =
  | {
      kind: 'install-specs';
      specs: readonly string[];
      includePrerelease: boolean;
      /** False with --no-enable. */
      enable: boolean;
      dryRun: boolean;
    }
  | { kind: 'install'; enable: boolean; dryRun: boolean }
  | { kind: 'ci' }
  | {
      kind: 'update';
      names: readonly string[];
      dryRun: boolean;
      allowDowngrade: boolean;
      includePrerelease: boolean;
    }
  | { kind: 'uninstall'; names: readonly string[]; keepData: boolean };

/** Runs a project operation with the install context (consent prompt on a TTY, progress) and prints it. */
export async function runProjectAction(
  action: ProjectAction,
  globals: GlobalOptions,
): Promise<void> {
  const { ctx, done } = createOperationContext(globals, 'install');
  const enable = enableModeOf(ctx, !('enable' in action) || action.enable);
  const base = { cwd: globals.cwd, enable };
  const run = async (): Promise<ProjectInstallResult> => {
    switch (action.kind) {
      case 'install-specs': {
        const { installProjectSpecs } = await import('../ops/project/install-project.js');
        return installProjectSpecs(ctx, action.specs, {
          ...base,
          includePrerelease: action.includePrerelease,
          dryRun: action.dryRun,
        });
      }
      case 'install':
        return (await import('../ops/project/install-project.js')).installProject(ctx, {
          ...base,
          dryRun: action.dryRun,
        });
      case 'ci':
        return (await import('../ops/project/ci.js')).ciProject(ctx, base);
      case 'update':
        return (await import('../ops/project/manage-project.js')).updateProjectPlugins(ctx, {
          ...base,
          names: action.names,
          dryRun: action.dryRun,
          allowDowngrade: action.allowDowngrade,
          includePrerelease: action.includePrerelease,
        });
      case 'uninstall':
        return (await import('../ops/project/manage-project.js')).uninstallProjectPlugins(ctx, {
          cwd: globals.cwd,
          names: action.names,
          keepData: action.keepData,
        });
    }
  };
  const result = await run().finally(done);
  if (globals.json) return printJson(result);
  const { printInstallResult } = await import('./render/render-install.js');
  printInstallResult({ installed: result.installed, dryRun: result.dryRun === true, notes: [] });
  for (const [id, entry] of Object.entries(result.wouldLock ?? {}))
    printLine(
      escapeControl(`would lock ${id} ${entry.version} ${entry.integrity} (${entry.resolved})`),
    );
  for (const file of result.wouldWrite ?? []) printLine(escapeControl(`would write ${file}`));
  for (const note of result.notes) printErrorLine(escapeControl(note));
  for (const file of result.wrote) printErrorLine(escapeControl(`wrote ${file}`));
}
