import { storePathsOf } from '../global-options.js';
import { INSTALL_OPTIONS, LIST_OPTIONS, SEARCH_OPTIONS } from '../grammar.js';
import { globalsOf, grammarOf, parseFastLine, type FastLine } from './fast-line.js';

/**
 * STYLE "Start-up cost": `list`, `search` and `install <spec...>` answer without commander and every
 * command, running and printing what cli/main.ts would, through the same operations and renderers;
 * any other line returns false and goes there (bench/cli-startup, search and install benchmarks).
 */
export async function runFastPath(argv: readonly string[]): Promise<boolean> {
  const args = argv.slice(2);
  for (const { command, grammar, operands, run } of FAST_COMMANDS) {
    const line = parseFastLine(args, command, grammar, operands !== 'none');
    if (line === null || (operands === 'some' && line.operands.length === 0)) continue;
    try {
      await run(line);
    } catch (error) {
      const { reportError } = await import('../report-error.js');
      process.exitCode = reportError(error, { json: line.switches.has('--json') });
    }
    return true;
  }
  return false;
}

interface FastCommand {
  command: string;
  grammar: ReturnType<typeof grammarOf>;
  /** `some`: one operand at least (commander's `<spec...>`); `any`: `[query...]`. */
  operands: 'none' | 'any' | 'some';
  run: (line: FastLine) => Promise<void>;
}

const FAST_COMMANDS: readonly FastCommand[] = [
  { command: 'list', grammar: grammarOf(LIST_OPTIONS), operands: 'none', run: runList },
  { command: 'search', grammar: grammarOf(SEARCH_OPTIONS), operands: 'any', run: runSearch },
  { command: 'install', grammar: grammarOf(INSTALL_OPTIONS), operands: 'some', run: runInstall },
];

/** What commands/list.ts runs. */
async function runList(line: FastLine): Promise<void> {
  const [{ listPlugins }, { printPluginList }] = await Promise.all([
    import('../../ops/plugins/list.js'),
    import('../render/render-list.js'),
  ]);
  const globals = globalsOf(line);
  printPluginList(await listPlugins(storePathsOf(globals)), globals.json);
}

/** What commands/search.ts runs. */
async function runSearch(line: FastLine): Promise<void> {
  const [{ searchPlugins }, { registryContextFromGlobals }, { printSearchResult }] =
    await Promise.all([
      import('../../ops/registries/search.js'),
      import('../registry-options.js'),
      import('../render/render-search.js'),
    ]);
  const globals = globalsOf(line);
  const { ctx, progress } = registryContextFromGlobals(globals);
  const event = line.values.get('--event');
  const query = { query: line.operands.join(' '), ...(event === undefined ? {} : { event }) };
  const found = await searchPlugins(ctx, query).finally(progress.done);
  printSearchResult(found, globals.json);
}

/** What commands/install.ts runs. */
async function runInstall(line: FastLine): Promise<void> {
  const { switches } = line;
  const { runInstall: install } = await import('../install-action.js');
  await install(
    line.operands,
    {
      enable: !switches.has('--no-enable'),
      force: switches.has('--force'),
      dryRun: switches.has('--dry-run'),
      includePrerelease: switches.has('--include-prerelease'),
    },
    globalsOf(line),
  );
}
