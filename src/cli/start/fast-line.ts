import { GLOBAL_OPTIONS, type OptionDefinition } from '../grammar.js';
import { resolveGlobals, type GlobalOptions } from '../global-options.js';

/**
 * A line the fast paths (fast-path.ts) answer: one command word, its operands, and the options of
 * cli/grammar.ts as commander reads them (global ones anywhere, the command's own after its word,
 * `--name value` or `--name=value`). Anything else (help, an unknown option, `--`, a value that
 * looks like an option) is null: the full CLI gives the same answer or the usage error.
 */
export interface FastLine {
  operands: string[];
  /** The switches given, by their long names (`-y` is `--yes`). */
  switches: Set<string>;
  /** The last value given for each option that takes one, by its long name. */
  values: Map<string, string>;
}

/** An option of a grammar: its long name, whether it takes a value, and whether it is global. */
type FastOption = { long: string; valued: boolean; global: boolean };

/** The options a line may hold, by every name they are written with (`-y` and `--yes`). */
export function grammarOf(own: readonly OptionDefinition[]): Map<string, FastOption> {
  const names = new Map<string, FastOption>();
  for (const { flags } of [...GLOBAL_OPTIONS, ...own]) {
    const words = flags.split(/[ ,]+/);
    const long = words.find((word) => word.startsWith('--'));
    if (long === undefined) throw new Error(`Assertion failed: ${flags} has no long name`);
    const valued = words.some((word) => word.startsWith('<'));
    const option = { long, valued, global: GLOBAL_OPTIONS.some((o) => o.flags === flags) };
    for (const word of words) if (word.startsWith('-')) names.set(word, option);
  }
  return names;
}

export function parseFastLine(
  args: readonly string[],
  command: string,
  grammar: ReadonlyMap<string, FastOption>,
  takesOperands: boolean,
): FastLine | null {
  const line: FastLine = { operands: [], switches: new Set(), values: new Map() };
  let named = false;
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] as string;
    const equals = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const option = grammar.get(equals === -1 ? arg : arg.slice(0, equals));
    if (option !== undefined && !option.global && !named) return null;
    if (option !== undefined && equals !== -1) {
      if (!option.valued) return null;
      line.values.set(option.long, arg.slice(equals + 1));
    } else if (option?.valued === true) {
      const value = args[i + 1];
      if (value === undefined || value.startsWith('-')) return null;
      line.values.set(option.long, value);
      i += 1;
    } else if (option !== undefined) line.switches.add(option.long);
    else if (arg.startsWith('-')) return null;
    else if (!named) {
      if (arg !== command) return null;
      named = true;
    } else if (takesOperands) line.operands.push(arg);
    else return null;
  }
  return named ? line : null;
}

/** The global options of a fast line, resolved as commander's are (cli/global-options.ts). */
export function globalsOf(line: FastLine): GlobalOptions {
  return resolveGlobals({
    home: line.values.get('--home'),
    cwd: line.values.get('--cwd'),
    json: line.switches.has('--json'),
    yes: line.switches.has('--yes'),
    offline: line.switches.has('--offline'),
  });
}
