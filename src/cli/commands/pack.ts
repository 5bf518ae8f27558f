import type { Command } from 'commander';
import { resolve } from 'node:path';
import { globalOptions } from '../global-options.js';
import { escapeControl, printJson, printLine } from '../render/render.js';
import { publishedAtOption } from './registry-publish.js';

/** `hookpm pack <dir>` (cli.md): a plugin tarball plus its index entry. */
export function register(program: Command): void {
  program
    .command('pack <dir>')
    .helpGroup('Publish')
    .description('pack a plugin directory into a registry tarball and print its index entry')
    .option('--out <dir>', 'where to write <name>-<version>.tgz (default: the working directory)')
    .option(
      '--published-at <date>',
      'publishedAt of the entry (default: SOURCE_DATE_EPOCH, else none)',
    )
    .addHelpText('after', '\nExample:\n  $ hookpm pack ./plugins/guard --out ./dist --json\n')
    .action(
      async (dir: string, options: { out?: string; publishedAt?: string }, command: Command) => {
        const globals = globalOptions(command);
        const { packPlugin } = await import('../../publish/pack.js');
        const { normaliseDate } = await import('../../ops/registries/build.js');
        const given = publishedAtOption(options.publishedAt);
        const publishedAt = given === undefined ? undefined : normaliseDate(given);
        const result = await packPlugin(resolve(globals.cwd, dir), {
          outDir: resolve(globals.cwd, options.out ?? '.'),
          ...(publishedAt === undefined ? {} : { publishedAt }),
        });
        const { surface: _surface, about: _about, ...shown } = result;
        if (globals.json) return printJson(shown);
        printLine(`packed ${result.name}@${result.version}: ${escapeControl(result.file)}`);
        printLine(`  size         ${result.size} bytes`);
        printLine(`  integrity    ${result.integrity}`);
        printLine(`  events       ${result.events.length > 0 ? result.events.join(', ') : 'none'}`);
        printLine(`  surfaceHash  ${result.surfaceHash}`);
        printLine('index entry:');
        const entry = JSON.stringify({ [result.version]: result.entry }, null, 2);
        for (const line of entry.split('\n')) printLine(escapeControl(line));
      },
    );
}
