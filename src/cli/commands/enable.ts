import type { Command } from 'commander';
import { HookpmError } from '../../errors.js';
import type { HookSwitchResult } from '../../ops/plugins/hook-switch.js';
import { parseConfineSpec, type Capabilities } from '../../plugin/capabilities.js';
import { globalOptions, type GlobalOptions } from '../global-options.js';
import { createOperationContext } from '../operation-context.js';
import { escapeControl, printJson, printLine } from '../render/render.js';
import { relinkClaudeAfter } from '../relink-claude.js';
import { clip } from '../../text/clip.js';
import type { RecordScope } from '../../ops/steps/installed/project-records.js';

interface HookFlags {
  hook?: string[];
  project?: boolean;
  confine?: string;
}

/** `--project`: the project's records (docs/guides/projects.md), for the plugin or one hook. */
async function scopeOf(globals: GlobalOptions, flags: HookFlags) {
  if (flags.project !== true) return undefined;
  const { projectRecordScope } = await import('../../ops/steps/installed/project-records.js');
  return projectRecordScope(globals.cwd);
}

/** Repeatable `--hook <key>`. */
const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/** `hookpm enable <name>` and `hookpm disable <name>` (plugins.md Q4, V3), `--hook` for one hook. */
export function register(program: Command): void {
  program
    .command('enable')
    .helpGroup('Install and manage')
    .description(
      "consent to a plugin's hooks (shows the review and asks, or --yes) and enable it; --hook turns one hook back on",
    )
    .argument('<name>', 'plugin name or id (name@registry)')
    .option(
      '--hook <key>',
      'turn this hook back on (its key from `hookpm review`); repeatable',
      collect,
    )
    .option('-P, --project', "enable it in this project only (the project's plugin)")
    .option(
      '--confine <spec>',
      'run its hooks confined, recorded with the consent: network=false|true,write=data+project+tmp (or write=none); off lifts it',
    )
    .addHelpText(
      'after',
      '\nExample:\n  $ hookpm review guard\n  $ hookpm enable guard --yes\n  $ hookpm enable guard --hook 3fa9c1e2b0\n  $ hookpm enable notify-on-stop --confine network=false,write=data\n',
    )
    .action(async (name: string, flags: HookFlags, command: Command) => {
      const globals = globalOptions(command);
      const scope = await scopeOf(globals, flags);
      if (flags.hook !== undefined)
        return switchHooks(globals, { name, keys: flags.hook, off: false, scope });
      const { enablePlugin } = await import('../../ops/plugins/enable.js');
      const result = await enablePlugin(createOperationContext(globals).ctx, {
        name,
        ...(scope === undefined ? {} : { scope }),
        ...(flags.confine === undefined ? {} : { confine: confineFlag(flags.confine) }),
      });
      await relinkClaudeAfter(globals);
      if (globals.json) return printJson(result);
      printLine(
        escapeControl(
          `${result.changed ? 'enabled' : 'already enabled'} ${result.id} ${result.version}; events: ${result.events.join(', ') || 'none'}`,
        ),
      );
    });
  program
    .command('disable')
    .helpGroup('Install and manage')
    .description(
      "stop a plugin's hooks from running (consent and data are kept); --hook turns off one hook only",
    )
    .argument('<name>', 'plugin name or id (name@registry)')
    .option(
      '--hook <key>',
      'turn off only this hook (its key from `hookpm review`); repeatable',
      collect,
    )
    .option('-P, --project', "disable it in this project only (the project's plugin)")
    .addHelpText(
      'after',
      '\nExample:\n  $ hookpm disable guard\n  $ hookpm disable guard --hook 3fa9c1e2b0\n',
    )
    .action(async (name: string, flags: HookFlags, command: Command) => {
      const globals = globalOptions(command);
      const scope = await scopeOf(globals, flags);
      if (flags.hook !== undefined)
        return switchHooks(globals, { name, keys: flags.hook, off: true, scope });
      const { disablePlugin } = await import('../../ops/plugins/disable.js');
      const result = await disablePlugin(createOperationContext(globals).ctx, {
        name,
        ...(scope === undefined ? {} : { scope }),
      });
      await relinkClaudeAfter(globals);
      if (globals.json) return printJson(result);
      printLine(escapeControl(`${result.changed ? 'disabled' : 'already disabled'} ${result.id}`));
    });
}

/** `--confine <spec>` (security.md Z4), or E_USAGE naming what is wrong. */
function confineFlag(text: string): Capabilities | 'off' {
  if (text.trim() === 'off') return 'off';
  const parsed = parseConfineSpec(text);
  if ('error' in parsed)
    throw new HookpmError('E_USAGE', `--confine ${JSON.stringify(clip(text))}: ${parsed.error}`, {
      hint: 'For example: `--confine network=false,write=data+tmp`.',
    });
  return parsed;
}

async function switchHooks(
  globals: GlobalOptions,
  opts: { name: string; keys: readonly string[]; off: boolean; scope: RecordScope | undefined },
): Promise<void> {
  const ops = await import('../../ops/plugins/hook-switch.js');
  const { scope, ...rest } = opts;
  const result = await ops.switchHooks(createOperationContext(globals).ctx, {
    ...rest,
    ...(scope === undefined ? {} : { scope }),
  });
  if (globals.json) return printJson(result);
  for (const line of hookSwitchLines(result)) printLine(escapeControl(line));
}

function hookSwitchLines(result: HookSwitchResult): string[] {
  const lines = result.hooks.map((hook) => {
    const verb = hook.off
      ? hook.changed
        ? 'turned off'
        : 'already off'
      : hook.changed
        ? 'turned back on'
        : 'already on';
    const what = hook.entries
      .map(
        (e) =>
          `${e.event} command ${JSON.stringify(e.command)}${e.argv === null ? '' : ` argv ${JSON.stringify(e.argv)}`}`,
      )
      .join('; ');
    return `${verb}: hook ${hook.key} of ${result.id}${what === '' ? '' : ` (${what})`}`;
  });
  if (!result.enabled)
    lines.push(`${result.id} itself is disabled; \`hookpm enable ${result.id}\` enables it`);
  return lines;
}
