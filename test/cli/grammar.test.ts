import type { Command, Option } from 'commander';
import { describe, expect, it } from 'vitest';
import {
  GLOBAL_OPTIONS,
  INSTALL_OPTIONS,
  LIST_OPTIONS,
  SEARCH_OPTIONS,
  type OptionDefinition,
} from '../../src/cli/grammar.js';
import { buildProgram } from '../../src/cli/main.js';
import { grammarOf, parseFastLine } from '../../src/cli/start/fast-line.js';

/**
 * One grammar per command (STYLE "Start-up cost"): the fast paths of `install`, `list` and
 * `search` (src/cli/start/fast-path.ts) parse from cli/grammar.ts, which commander registers too.
 * These tables check the two parsers agree on every option, negation, alias and value form.
 */
const COMMANDS: ReadonlyArray<{
  name: string;
  own: readonly OptionDefinition[];
  operands: string[];
}> = [
  { name: 'install', own: INSTALL_OPTIONS, operands: ['guard@examples', './dir'] },
  { name: 'list', own: LIST_OPTIONS, operands: [] },
  { name: 'search', own: SEARCH_OPTIONS, operands: ['git', 'guard'] },
];

function subcommand(program: Command, name: string): Command {
  const found = program.commands.find((command) => command.name() === name);
  if (found === undefined) throw new Error(`no command ${name}`);
  return found;
}

/** Each way commander accepts an option written, with a value where it takes one. */
function writtenForms(option: Option): string[][] {
  const names = [option.long, option.short].filter((name): name is string => name !== undefined);
  if (!option.required) return names.map((name) => [name]);
  return names.flatMap((name) =>
    name.startsWith('--') ? [[name, 'v1'], [`${name}=v2`]] : [[name, 'v3']],
  );
}

/** What commander makes of a line: the command's operands and every option's value. */
async function commanderParse(
  name: string,
  args: string[],
): Promise<{ operands: string[]; values: Record<string, unknown> }> {
  const program = buildProgram();
  let seen: { operands: string[]; values: Record<string, unknown> } | undefined;
  subcommand(program, name).action((...received: unknown[]) => {
    const command = received.at(-1) as Command;
    seen = {
      operands: (received.length > 2 ? (received[0] as string[]) : []) ?? [],
      values: command.optsWithGlobals(),
    };
  });
  await program.parseAsync(['node', 'hookpm', ...args]);
  if (seen === undefined) throw new Error(`commander ran no action for ${args.join(' ')}`);
  return seen;
}

describe('one grammar for the fast paths and commander (cli.md sections 1-3)', () => {
  for (const { name, own, operands } of COMMANDS) {
    const program = buildProgram();
    const options = [...program.options, ...subcommand(program, name).options].filter(
      (option) => !['--version', '--help'].includes(option.long as string),
    );
    const grammar = grammarOf(own);

    it(`${name}: every option commander knows (long name, alias, negation, value) is the fast grammar's, and no other`, () => {
      const fromCommander = new Map<string, object>();
      for (const option of options) {
        const global = program.options.includes(option);
        const entry = {
          key: option.attributeName(),
          valued: option.required,
          negate: option.negate,
          global,
        };
        for (const written of [option.long, option.short])
          if (written !== undefined) fromCommander.set(written, entry);
      }
      expect(new Map(grammar)).toEqual(fromCommander);
      expect(options.map((o) => o.flags).sort()).toEqual(
        [...GLOBAL_OPTIONS, ...own].map((o) => o.flags).sort(),
      );
    });

    it(`${name}: each option in each written form, before or after the command word, parses as commander parses it`, async () => {
      const lines: string[][] = [[name, ...operands]];
      for (const option of options)
        for (const form of writtenForms(option)) {
          lines.push([name, ...operands, ...form]);
          if (program.options.includes(option)) lines.push([...form, name, ...operands]);
        }
      // Every switch at once, and a value given twice (the last one wins in both).
      const switches = options.filter((o) => !o.required).map((o) => o.long as string);
      lines.push([name, ...switches, ...operands], ['--home', 'a', name, '--home=b', ...operands]);
      for (const args of lines) {
        const line = parseFastLine(args, name, grammar, operands.length > 0);
        expect(line, `the fast path takes ${args.join(' ')}`).not.toBeNull();
        const expected = await commanderParse(name, args);
        expect({ operands: line!.operands, values: line!.options }).toEqual(expected);
      }
    });
  }

  it('a line the fast grammar does not know goes to commander (help, unknown options, `--`, a value that looks like an option)', () => {
    const install = grammarOf(INSTALL_OPTIONS);
    for (const args of [
      ['install', '--help'],
      ['install', 'a', '--enable'],
      ['install', '--', 'a'],
      ['install', 'a', '--home', '--json'],
      ['install', 'a', '--json=yes'],
      ['install', 'a', '-Y'],
      // The command's own options come after its word (commander: unknown option).
      ['--no-enable', 'install', 'a'],
      ['list', 'a'],
    ])
      expect(parseFastLine(args, 'install', install, true)).toBeNull();
    expect(parseFastLine(['list', 'extra'], 'list', grammarOf(LIST_OPTIONS), false)).toBeNull();
  });
});
