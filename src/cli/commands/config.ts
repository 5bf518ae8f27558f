import type { Command } from 'commander';
import { HookpmError } from '../../errors.js';
import { globalOptions, storePathsOf } from '../global-options.js';
import { printJson, printLine } from '../render/render.js';
import { clip } from '../../text/clip.js';

/**
 * `hookpm config set <key> <value>` (docs/reference/rules/policy.md#a15): one setting of
 * settings.json's `updates`, the other keys of the file kept.
 */
export function register(program: Command): void {
  const config = program
    .command('config')
    .helpGroup('Admin')
    .description('change a setting of settings.json (updates.minimumReleaseAgeDays, updates.check)')
    .addHelpText('after', '\nExample:\n  $ hookpm config set updates.minimumReleaseAgeDays 3\n');
  config
    .command('set')
    .description('set a setting: updates.minimumReleaseAgeDays <days>, updates.check daily|never')
    .argument('<key>', 'updates.minimumReleaseAgeDays or updates.check')
    .argument('<value>', 'the value')
    .addHelpText('after', '\nExample:\n  $ hookpm config set updates.minimumReleaseAgeDays 3\n')
    .action(async (key: string, value: string, _flags: unknown, command: Command) => {
      const globals = globalOptions(command);
      const { UPDATE_KEYS, writeUpdateSetting } = await import('../../store/update-settings.js');
      if (!Object.hasOwn(UPDATE_KEYS, key))
        throw new HookpmError('E_USAGE', `unknown setting ${clip(key)}`, {
          hint: `Settings: ${Object.keys(UPDATE_KEYS).join(', ')}.`,
        });
      const set = await writeUpdateSetting(
        storePathsOf(globals),
        key as keyof typeof UPDATE_KEYS,
        value,
      );
      if (globals.json) return printJson({ key, value: set });
      printLine(`${key} = ${String(set)}`);
    });
}
