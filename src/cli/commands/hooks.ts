import type { Command } from 'commander';
import { canAsk } from '../prompt/can-ask.js';
import { globalOptions } from '../global-options.js';
import { storePathsOf } from '../global-options.js';
import { formatDiagnostic, printErrorLine, printJson, printLine } from '../render/render.js';

export function register(program: Command): void {
  program
    .command('hooks')
    .helpGroup('Inspect')
    .description('show the effective merged hooks, in order, with origin and id')
    .option('--trust-project-hooks', 'load <project>/.deepagents/hooks.json without asking')
    .addHelpText(
      'after',
      '\nExample:\n  $ hookpm hooks --trust-project-hooks --cwd ./my-project --json\n',
    )
    .action(async (options: { trustProjectHooks?: boolean }, command: Command) => {
      const globals = globalOptions(command);
      const { describeSnapshot } = await import('../../ops/run/list-hooks.js');
      const { loadTrustedSnapshot } = await import('../../ops/run/load-trusted-snapshot.js');
      // engine.md T4/T5: ask on a TTY (never with --json); headless loads project hooks only with the flag.
      const { snapshot } = await loadTrustedSnapshot({
        cwd: globals.cwd,
        home: globals.userHome,
        flag: options.trustProjectHooks === true,
        store: storePathsOf(globals),
        ...(canAsk(globals.json)
          ? { askTrust: (await import('../prompt/prompt-trust.js')).promptTrust }
          : {}),
      });
      const listing = describeSnapshot(snapshot);
      if (globals.json) return printJson(listing);
      const { formatHookTable } = await import('../render/render-hooks.js');
      printLine(formatHookTable(listing));
      printLine(`snapshot ${listing.snapshotId}`);
      for (const d of listing.diagnostics) printErrorLine(formatDiagnostic(d));
    });
}
