import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { EVENT_NAMES, type EventName } from '../../hooks/events.js';
import { eventArgument } from '../event-argument.js';
import { globalOptions, storePathsOf } from '../global-options.js';
import { printJson, printLine } from '../render/render.js';

interface TestFlags {
  payload?: string;
  data?: string;
  project?: boolean;
}

/** `hookpm test <plugin> <Event>`: a plugin's handlers on one event, nothing installed (docs/guides/writing-plugins.md). */
export function register(program: Command): void {
  program
    .command('test')
    .helpGroup('Publish')
    .description("run a plugin's handlers on one event without installing it; shows each run")
    .argument('<plugin>', 'a plugin directory, a .tgz tarball, or an installed plugin')
    .argument('<event>', `the event: ${EVENT_NAMES.join(', ')}`)
    .option(
      '--payload <file|-|json>',
      "the event's fields: a JSON file, - for stdin, or the JSON itself (default: the plugin's payloads/<Event>.json, else {})",
    )
    .option(
      '--data <dir>',
      'the data directory handlers get, kept (default: a scratch one, removed)',
    )
    .option('-P, --project', "an installed plugin is the project's, not the user-wide one")
    .addHelpText(
      'after',
      [
        '',
        'Exits 1 when a handler fails (did not start, timed out, was killed, or exited other than 0',
        'or 2) or the plugin has an error install would refuse; a block or a denial is a decision.',
        '',
        'Example:',
        '  $ hookpm test ./my-guard PreToolUse --payload \'{"tool_name":"Bash","tool_input":{"command":"rm -rf /"}}\'',
        '  $ hookpm test guard-1.0.0.tgz Stop --json',
        '',
      ].join('\n'),
    )
    .action(async (target: string, name: string, flags: TestFlags, command: Command) => {
      const globals = globalOptions(command);
      const event = eventArgument(name);
      const [{ testPlugin }, { installExitCleanup }] = await Promise.all([
        import('../../ops/test/test-plugin.js'),
        import('../../engine/process-groups.js'),
      ]);
      const input = await payloadOf(flags.payload, event, globals.cwd);
      const scope =
        flags.project === true
          ? await (
              await import('../../ops/steps/installed/project-records.js')
            ).projectRecordScope(globals.cwd)
          : undefined;
      installExitCleanup();
      const report = await testPlugin({
        target,
        event,
        input,
        cwd: globals.cwd,
        store: storePathsOf(globals),
        ...(scope === undefined ? {} : { scope }),
        ...(flags.data === undefined ? {} : { dataDir: resolve(globals.cwd, flags.data) }),
      });
      process.exitCode = report.failed || report.invalid ? 1 : 0;
      if (globals.json) return printJson(report);
      const { formatTestReport } = await import('../render/render-test.js');
      printLine(formatTestReport(report));
    });
}

/**
 * `--payload` as inline JSON, a file or stdin (read-payload.ts), read now; without one, the
 * plugin's sample payload, `payloads/<Event>.json` in the root its handlers see (a directory, a
 * tarball's extracted copy, an installed tree), else `{}`.
 */
async function payloadOf(
  spec: string | undefined,
  event: EventName,
  cwd: string,
): Promise<Record<string, unknown> | ((root: string) => Promise<Record<string, unknown>>)> {
  const { readPayload } = await import('../read-payload.js');
  if (spec !== undefined) return readPayload(spec, cwd);
  return (root) => {
    const sample = join(root, 'payloads', `${event}.json`);
    return readPayload(existsSync(sample) ? sample : undefined, cwd);
  };
}
