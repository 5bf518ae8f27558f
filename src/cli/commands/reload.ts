import type { Command } from 'commander';
import { HookpmError } from '../../errors.js';
import { globalOptions, storePathsOf } from '../global-options.js';
import { printJson, printLine } from '../render/render.js';

interface ReloadFlags {
  session?: string;
  all?: boolean;
}

/** `hookpm reload --session <id> | --all`: a linked agent session picks up plugin changes (R1, R4). */
export function register(program: Command): void {
  program
    .command('reload')
    .helpGroup('Run')
    .description('let a linked agent session run the plugins enabled now (its next event on)')
    .option('--session <id>', "the agent's session id (the payload's session_id)")
    .option('--all', 'every pinned agent session')
    .addHelpText(
      'after',
      '\nExample:\n  $ hookpm reload --session 9c1e0d2a-...\n  $ hookpm reload --all --json\n',
    )
    .action(async (flags: ReloadFlags, command: Command) => {
      const globals = globalOptions(command);
      if ((flags.session === undefined) === (flags.all !== true))
        throw new HookpmError('E_USAGE', 'reload needs exactly one of --session <id> and --all', {
          hint: "A session id is the session_id of the agent's hook payloads; --all reloads every pinned session.",
        });
      const { reloadSessions } = await import('../../ops/wire/reload-sessions.js');
      const target =
        flags.session === undefined ? { all: true as const } : { sessionId: flags.session };
      const reloaded = await reloadSessions(storePathsOf(globals), target);
      if (globals.json) return printJson({ sessions: reloaded });
      const { formatReloaded } = await import('../render/render-link.js');
      printLine(formatReloaded(reloaded));
    });
}
