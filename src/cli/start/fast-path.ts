import { resolveGlobals } from '../global-options.js';
import { ALIASES } from '../help-groups.js';
import { INSTALL_OPTIONS, LIST_OPTIONS, SEARCH_OPTIONS } from '../grammar.js';
import type { InstallFlags } from '../install-action.js';
import type { ListFlags } from '../commands/list.js';
import { grammarOf, parseFastLine, type FastLine } from './fast-line.js';

/**
 * STYLE "Start-up cost": `list`, `search` and `install <spec...>` answer without commander and every
 * command, running and printing what cli/main.ts would, through the same operations and renderers;
 * any other line returns false and goes there (bench/cli-startup, search and install benchmarks).
 */
export async function runFastPath(argv: readonly string[]): Promise<boolean> {
  const args = argv.slice(2);
  for (const { command, grammar, operands, run } of FAST_COMMANDS) {
    const line = [command, ...ALIASES[command]]
      .map((name) => parseFastLine(args, name, grammar, operands !== 'none'))
      .find((parsed) => parsed !== null);
    if (line === undefined || (operands === 'some' && line.operands.length === 0)) continue;
    try {
      await run(line);
    } catch (error) {
      const { reportError } = await import('../report-error.js');
      process.exitCode = reportError(error, { json: line.options.json === true });
    }
    return true;
  }
  return false;
}

interface FastCommand {
  /** Its name, which also stands for its aliases (help-groups.ts ALIASES). */
  command: 'list' | 'search' | 'install';
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
  const { runList: list } = await import('../commands/list.js');
  await list(resolveGlobals(line.options), line.options as ListFlags);
}

/** What commands/search.ts runs. */
async function runSearch({ operands, options }: FastLine): Promise<void> {
  const { runSearch: search } = await import('../commands/search.js');
  await search(operands, options as { event?: string }, resolveGlobals(options));
}

/** What commands/install.ts runs. */
async function runInstall({ operands, options }: FastLine): Promise<void> {
  const { runInstallLine } = await import('../commands/install.js');
  await runInstallLine(operands, options as unknown as InstallFlags, resolveGlobals(options));
}
