import type { Command } from 'commander';
import { globalOptions, type GlobalOptions } from '../global-options.js';
import { SEARCH_OPTIONS } from '../grammar.js';
import { createOperationContext } from '../operation-context.js';
import { printSearchResult } from '../render/render-search.js';
import { ALIASES } from '../help-groups.js';

/** `hookpm search [query] [--event E]` (docs/reference/rules/cli.md#commands, #json-shapes); cli/start/fast-path.ts answers the common forms first. */
export function register(program: Command): void {
  const command = program
    .command('search [query...]')
    .aliases(ALIASES.search)
    .helpGroup('Inspect')
    .description('search every registry by name, description and keyword');
  for (const { flags, description } of SEARCH_OPTIONS) command.option(flags, description);
  command
    .addHelpText(
      'after',
      '\nExample:\n  $ hookpm search guard\n  $ hookpm search --event PreToolUse --json\n',
    )
    .action((words: string[], options: { event?: string }, command: Command) =>
      runSearch(words, options, globalOptions(command)),
    );
}

/** `hookpm search`, from commander or from the fast path. */
export async function runSearch(
  words: readonly string[],
  options: { event?: string },
  globals: GlobalOptions,
): Promise<void> {
  const { ctx, done } = createOperationContext(globals, 'index');
  const { searchPlugins } = await import('../../ops/registries/search.js');
  const found = await searchPlugins(ctx, {
    query: words.join(' '),
    ...(options.event === undefined ? {} : { event: options.event }),
  }).finally(done);
  printSearchResult(found, globals.json);
}
