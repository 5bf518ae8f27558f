import { GLOBAL_OPTIONS, type OptionDefinition } from '../grammar.js';

/**
 * A line the fast paths (fast-path.ts) answer: one command word, its operands, and the options of
 * cli/grammar.ts as commander reads them (global ones anywhere, the command's own after its word,
 * `--name value` or `--name=value`). Anything else (help, an unknown option, `--`, a value that
 * looks like an option) is null: the full CLI gives the same answer or the usage error.
 */
export interface FastLine {
  operands: string[];
  /**
   * The options as commander's `optsWithGlobals()` gives them: by attribute name (`dryRun`), true
   * for a switch given, false for `--no-x` given and true when not, the last value given.
   */
  options: Record<string, string | boolean>;
}

/** An option of a grammar, as commander names and reads it. */
type FastOption = { key: string; valued: boolean; negate: boolean; global: boolean };

/** The options a line may hold, by every name they are written with (`-y` and `--yes`). */
export function grammarOf(own: readonly OptionDefinition[]): Map<string, FastOption> {
  const names = new Map<string, FastOption>();
  const all = [
    ...GLOBAL_OPTIONS.map((o) => [o, true] as const),
    ...own.map((o) => [o, false] as const),
  ];
  for (const [{ flags }, global] of all) {
    const words = flags.split(/[ ,]+/);
    const long = words.find((word) => word.startsWith('--'));
    if (long === undefined) throw new Error(`Assertion failed: ${flags} has no long name`);
    const negate = long.startsWith('--no-');
    const key = long
      .slice(negate ? '--no-'.length : '--'.length)
      .replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
    const option = { key, valued: words.some((word) => word.startsWith('<')), negate, global };
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
  const line: FastLine = { operands: [], options: {} };
  for (const option of grammar.values()) if (option.negate) line.options[option.key] = true;
  let named = false;
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] as string;
    const equals = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const option = grammar.get(equals === -1 ? arg : arg.slice(0, equals));
    if (option !== undefined && !option.global && !named) return null;
    if (option !== undefined && equals !== -1) {
      if (!option.valued) return null;
      line.options[option.key] = arg.slice(equals + 1);
    } else if (option?.valued === true) {
      const value = args[i + 1];
      if (value === undefined || value.startsWith('-')) return null;
      line.options[option.key] = value;
      i += 1;
    } else if (option !== undefined) line.options[option.key] = !option.negate;
    else if (arg.startsWith('-')) return null;
    else if (!named) {
      if (arg !== command) return null;
      named = true;
    } else if (takesOperands) line.operands.push(arg);
    else return null;
  }
  return named ? line : null;
}
