import type { Command } from 'commander';
import { globalOptions } from '../global-options.js';
import { storePathsOf } from '../plugin-context.js';
import { canPromptTrust, promptTrust } from '../prompt-trust.js';
import { formatDiagnostic, printErrorLine, printJson, printLine, renderTable } from '../render.js';

export function register(program: Command): void {
  program
    .command('hooks')
    .description('show the effective merged hooks, in order, with origin and id')
    .option('--trust-project-hooks', 'load <project>/.deepagents/hooks.json without asking')
    .addHelpText(
      'after',
      '\nExample:\n  $ hookpm hooks --trust-project-hooks --cwd ./my-project --json\n',
    )
    .action(async (options: { trustProjectHooks?: boolean }, command: Command) => {
      const globals = globalOptions(command);
      const { describeSnapshot } = await import('../../ops/list-hooks.js');
      const { loadTrustedSnapshot } = await import('../../ops/load-trusted-snapshot.js');
      // engine.md T4/T5: ask on a TTY (never with --json); headless loads project hooks only with the flag.
      const { snapshot } = await loadTrustedSnapshot({
        cwd: globals.cwd,
        home: globals.userHome,
        flag: options.trustProjectHooks === true,
        store: storePathsOf(globals),
        ...(canPromptTrust(globals.json) ? { askTrust: (file: string) => promptTrust(file) } : {}),
      });
      const listing = describeSnapshot(snapshot);
      if (globals.json) return printJson(listing);
      const rows = listing.handlers.map((h) => [
        h.id,
        h.plugin === null ? h.origin : `plugin ${h.plugin}`,
        h.matcher ?? '*',
        h.if ?? '',
        `${h.timeout}s`,
        h.argv === null ? h.command : JSON.stringify(h.argv),
      ]);
      if (rows.length === 0) printLine('no hooks');
      else printLine(renderTable(['ID', 'ORIGIN', 'MATCHER', 'IF', 'TIMEOUT', 'COMMAND'], rows));
      printLine(`snapshot ${listing.snapshotId}`);
      for (const d of listing.diagnostics) printErrorLine(formatDiagnostic(d));
    });
}
