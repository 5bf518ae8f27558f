import type { Command } from 'commander';
import { canAsk } from '../prompt/can-ask.js';
import { globalOptions } from '../global-options.js';
import { resolveStorePaths } from '../../store/paths.js';

/**
 * `hookpm session` (docs/reference/rules/cli.md#session): a long-running host. With stdin and
 * stdout both terminals (and no --json) it is an interactive prompt, which may ask the workspace
 * trust question (T4); otherwise it speaks JSON-RPC 2.0 on stdin/stdout and never asks (T5).
 * Handlers' process groups are killed before the process ends, however it ends (SIGTERM, SIGINT,
 * SIGHUP included).
 */
export function register(program: Command): void {
  program
    .command('session')
    .helpGroup('Run')
    .description('a long-running host: JSON-RPC 2.0 over stdio, or an interactive prompt on a TTY')
    .option('--trust-project-hooks', 'load <project>/.deepagents/hooks.json without asking')
    .addHelpText(
      'after',
      [
        '',
        'Methods (one JSON-RPC message per line): dispatch {event, payload, continuationCount?},',
        'reload, hooks, shutdown. The first line out is the notification "ready" with the snapshot.',
        'At end of input the dispatches in flight finish and are answered, then the session exits;',
        'shutdown, SIGTERM and SIGINT kill running handlers instead.',
        '',
        'Example:',
        '  $ hookpm session --cwd ./my-project      # on a terminal: the interactive prompt',
        `  $ printf '%s\\n' '{"jsonrpc":"2.0","id":1,"method":"dispatch","params":{"event":"Stop","payload":{}}}' | hookpm session`,
        '',
      ].join('\n'),
    )
    .action(async (flags: { trustProjectHooks?: boolean }, command: Command) => {
      const globals = globalOptions(command);
      const [{ createSession }, { installExitCleanup }, trust] = await Promise.all([
        import('../../ops/run/session.js'),
        import('../../engine/process-groups.js'),
        import('../prompt/prompt-trust.js'),
      ]);
      installExitCleanup();
      const interactive =
        !globals.json && process.stdin.isTTY === true && process.stdout.isTTY === true;
      const ask = interactive && canAsk(false);
      const session = await createSession({
        cwd: globals.cwd,
        home: globals.userHome,
        trustProjectHooks: flags.trustProjectHooks === true,
        store: resolveStorePaths({ HOOKPM_HOME: globals.hookpmHome }),
        ...(ask ? { askTrust: trust.promptTrust } : {}),
      });
      if (interactive) {
        const { runPrompt } = await import('../session/session-prompt.js');
        const end = await runPrompt(session);
        process.exit(end === 'interrupted' ? 130 : 0);
      }
      const { serveRpc } = await import('../session/session-rpc.js');
      await serveRpc(session, { input: process.stdin, output: process.stdout });
      // Pending kill timers of finished handlers must not keep the host alive; 'exit' kills groups.
      process.exit(0);
    });
}
