import type { Command } from 'commander';
import { HookpmError } from '../../errors.js';
import { EVENT_NAMES } from '../../hooks/events.js';
import { eventArgument } from '../event-argument.js';
import { globalOptions } from '../global-options.js';
import { storePathsOf } from '../global-options.js';
import { canAsk } from '../prompt/can-ask.js';
import { printJson, printLine } from '../render/render.js';

interface RunFlags {
  payload?: string;
  continuationCount?: string;
  trustProjectHooks?: boolean;
}

/** `hookpm run <Event>`: dispatches one event through the engine and prints the result (cli.md 2-3). */
export function register(program: Command): void {
  program
    .command('run')
    .helpGroup('Run')
    .description('dispatch one event through the engine and print the result')
    .argument('<event>', `the event: ${EVENT_NAMES.join(', ')}`)
    .option(
      '--payload <json|file>',
      "the event's fields as a JSON object: inline ('{...}'), a file, or - for stdin",
    )
    .option('--continuation-count <n>', 'consecutive Stop continuations so far', '0')
    .option('--trust-project-hooks', 'load <project>/.deepagents/hooks.json without asking')
    .addHelpText(
      'after',
      [
        '',
        'Exits 0 whatever the hooks decided; the decision is in the output.',
        '',
        'Example:',
        '  $ hookpm run PreToolUse --payload payload.json --json',
        `  $ hookpm run Stop --payload '{"stop_hook_active":false}'`,
        `  $ echo '{"tool_name":"Bash","tool_input":{"command":"rm -rf /"}}' | hookpm run PreToolUse --payload -`,
        '',
      ].join('\n'),
    )
    .action(async (name: string, flags: RunFlags, command: Command) => {
      const globals = globalOptions(command);
      const event = eventArgument(name);
      const continuationCount = parseCount(flags.continuationCount ?? '0');
      const [{ readPayload }, { runEvent }, { installExitCleanup }] = await Promise.all([
        import('../read-payload.js'),
        import('../../ops/run/run-event.js'),
        import('../../engine/process-groups.js'),
      ]);
      const input = await readPayload(flags.payload, globals.cwd);
      // A terminated `hookpm run` takes its handlers' process groups with it (X4, security.md).
      installExitCleanup();
      // engine.md T4/T5 as `hookpm hooks`: ask only on a TTY, never with --json or a stdin payload.
      const ask = canAsk(globals.json) && flags.payload !== '-';
      const result = await runEvent({
        event,
        input,
        continuationCount,
        cwd: globals.cwd,
        home: globals.userHome,
        flag: flags.trustProjectHooks === true,
        store: storePathsOf(globals),
        ...(ask ? { askTrust: (await import('../prompt/prompt-trust.js')).promptTrust } : {}),
      });
      if (globals.json) return printJson(result);
      const { formatDispatchResult } = await import('../render/render-dispatch.js');
      printLine(formatDispatchResult(result));
    });
}

function parseCount(text: string): number {
  const count = /^\d{1,9}$/.test(text) ? Number(text) : NaN;
  if (Number.isSafeInteger(count)) return count;
  throw new HookpmError(
    'E_USAGE',
    `--continuation-count: expected a non-negative integer, found ${JSON.stringify(text)}`,
    {
      hint: 'Pass the number of consecutive Stop continuations so far, e.g. --continuation-count 3.',
    },
  );
}
