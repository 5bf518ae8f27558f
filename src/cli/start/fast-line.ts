import { resolveGlobals, type GlobalOptions } from './global-options.js';

/**
 * The command lines the fast paths (cli/fast-path.ts) answer without commander: one command word,
 * its operands, the global options of cli.md section 1 (`--json`, `--yes`/`-y`, `--offline`,
 * `--home <dir>`, `--cwd <dir>`, each anywhere on the line) and the command's own options named
 * here. Anything else (help, an unknown option, `--`, a value that looks like an option) is null,
 * and the full CLI, which gives the same answer or the usage error, takes the line.
 */
export interface FastLine {
  operands: string[];
  /** The switches given, by their long names (`-y` is `--yes`). */
  switches: Set<string>;
  /** The last value given for each option that takes one. */
  values: Map<string, string>;
}

const GLOBAL_SWITCHES = ['--json', '--yes', '--offline'];
const GLOBAL_VALUES = ['--home', '--cwd'];

export function parseFastLine(
  args: readonly string[],
  command: string,
  own: { switches?: readonly string[]; values?: readonly string[]; operands?: boolean } = {},
): FastLine | null {
  const switches = new Set([...GLOBAL_SWITCHES, ...(own.switches ?? [])]);
  const valued = new Set([...GLOBAL_VALUES, ...(own.values ?? [])]);
  const line: FastLine = { operands: [], switches: new Set(), values: new Map() };
  let named = false;
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] as string;
    const equals = arg.indexOf('=');
    const name = equals === -1 ? arg : arg.slice(0, equals);
    if (arg === '-y') line.switches.add('--yes');
    else if (switches.has(arg)) line.switches.add(arg);
    else if (valued.has(name) && equals !== -1) line.values.set(name, arg.slice(equals + 1));
    else if (valued.has(arg)) {
      const value = args[i + 1];
      if (value === undefined || value.startsWith('-')) return null;
      line.values.set(arg, value);
      i += 1;
    } else if (arg.startsWith('-')) return null;
    else if (!named) {
      if (arg !== command) return null;
      named = true;
    } else if (own.operands === true) line.operands.push(arg);
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
