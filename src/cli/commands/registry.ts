import type { Command } from 'commander';
import type { RegistryStatus } from '../../ops/registries/list.js';
import { boldHeader, colourEnabled } from '../render/colour.js';
import { withFlagNames } from '../render/json-field-names.js';
import { globalOptions } from '../global-options.js';
import { createOperationContext } from '../operation-context.js';
import { printRegistryNotes } from '../registry-options.js';
import {
  escapeControl,
  printErrorLine,
  printJson,
  printLine,
  renderTable,
} from '../render/render.js';

/** `hookpm registry add|remove|list|update` (docs/reference/rules/cli.md#commands, docs/reference/rules/registry.md#registry-kinds). */
export function register(program: Command): void {
  const registry = program
    .command('registry')
    .helpGroup('Admin')
    .description('manage the registries plugins are searched and installed from')
    .addHelpText(
      'after',
      '\nExample:\n  $ hookpm registry add acme https://plugins.acme.dev/\n  $ hookpm registry list --json\n',
    );
  registry
    .command('add <name> <location>')
    .description(
      'add a registry: an index (https:// URL, loopback http:// URL, file:// URL or directory), a Claude-style marketplace (directory, git repository, or marketplace.json URL), or `npm`',
    )
    .addHelpText(
      'after',
      '\nExample:\n  $ hookpm registry add acme https://plugins.acme.dev/\n  $ hookpm registry add mine ./my-registry\n  $ hookpm registry add team git@github.com:acme/claude-plugins.git\n  $ hookpm registry add npm npm\n',
    )
    .action((name: string, location: string, _o: unknown, command: Command) =>
      add(name, location, command),
    );
  registry
    .command('remove <name>')
    .alias('rm')
    .description('remove a registry (installed plugins from it stay installed)')
    .addHelpText('after', '\nExample:\n  $ hookpm registry remove examples\n')
    .action((name: string, _o: unknown, command: Command) => remove(name, command));
  registry
    .command('list')
    .alias('ls')
    .description('list the registries with their plugin counts')
    .addHelpText('after', '\nExample:\n  $ hookpm registry list --json\n')
    .action((_o: unknown, command: Command) => list(command, 'list'));
  registry
    .command('update [name]')
    .description('fetch the index of every registry (or one) again')
    .addHelpText('after', '\nExample:\n  $ hookpm registry update acme\n')
    .action((name: string | undefined, _o: unknown, command: Command) =>
      list(command, 'update', name),
    );
}

async function add(name: string, location: string, command: Command): Promise<void> {
  const globals = globalOptions(command);
  const { ctx, done } = createOperationContext(globals, 'index');
  const { addRegistry } = await import('../../ops/registries/add.js');
  const added = await addRegistry(ctx, { name, location, cwd: globals.cwd }).finally(done);
  if (globals.json) return printJson({ added });
  printLine(
    `added registry ${added.name} (${added.kind}, ${added.plugins} plugin(s)) at ${escapeControl(added.location)}`,
  );
  for (const warning of added.warnings)
    printErrorLine(`hookpm: warning: registry ${added.name}: ${escapeControl(warning)}`);
}

async function remove(name: string, command: Command): Promise<void> {
  const globals = globalOptions(command);
  const { ctx } = createOperationContext(globals, 'index');
  const { removeRegistry } = await import('../../ops/registries/remove.js');
  const removed = await removeRegistry(ctx, name);
  if (globals.json) return printJson({ removed });
  printLine(`removed registry ${removed.name}`);
  if (removed.installed.length > 0) {
    printLine(`still installed from it (no longer updatable): ${removed.installed.join(', ')}`);
  }
}

async function list(command: Command, verb: 'list' | 'update', name?: string): Promise<void> {
  const globals = globalOptions(command);
  const { ctx, done } = createOperationContext(globals, 'index');
  const ops = await import('../../ops/registries/list.js');
  const registries = await (
    verb === 'list' ? ops.listRegistries(ctx) : ops.updateRegistries(ctx, name)
  ).finally(done);
  if (registries.some((r) => r.error !== null)) process.exitCode = verb === 'update' ? 1 : 0;
  if (globals.json) return printJson({ registries: registries.map(withFlagNames) });
  if (registries.length === 0)
    printLine('no registries; add one with `hookpm registry add <name> <location>`');
  else
    printLine(
      boldHeader(
        renderTable(['NAME', 'KIND', 'PLUGINS', 'STATUS', 'LOCATION'], registries.map(row)),
        colourEnabled(),
      ),
    );
  for (const r of registries) {
    for (const warning of verb === 'update' ? r.excluded : [])
      printErrorLine(`hookpm: warning: registry ${r.name}: ${escapeControl(warning)}`);
    if (r.error === null) continue;
    printErrorLine(
      `hookpm: warning[${r.error.code}]: registry ${r.name}: ${escapeControl(r.error.message)}`,
    );
    if (r.error.hint !== null) printErrorLine(`  ${escapeControl(r.error.hint)}`);
  }
  printRegistryNotes({
    warnings: [],
    cacheOnly: registries.filter((r) => r.cacheOnly).map((r) => r.name),
  });
}

function row(r: RegistryStatus): string[] {
  return [r.name, r.kind, r.plugins === null ? '-' : String(r.plugins), statusWord(r), r.location];
}

function statusWord(r: RegistryStatus): string {
  if (r.error !== null) return `error ${r.error.code}`;
  if (r.cacheOnly) return 'cached (offline)';
  if (r.stale !== null) return `cached (unreachable: ${r.stale.code})`;
  switch (r.origin) {
    case 'network':
      return 'fetched';
    case 'disk':
      return 'read';
    case 'not-modified':
      return 'unchanged';
    default:
      return r.builtin ? 'built-in, cached' : 'cached';
  }
}
