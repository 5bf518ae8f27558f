/**
 * docs/reference/commands.md names every option `--help` shows: each command's options (hidden ones
 * aside) appear on a line of the page that names the command (its table row, or a section's
 * sentence such as "`hookpm enable <name> --confine <spec>`"), and the global options in the
 * conventions. An option added without documenting it fails here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/main.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DOC = readFileSync(join(ROOT, 'docs', 'reference', 'commands.md'), 'utf8');

/** Every command below `command`, with its path of names (`registry build`). */
function commandsOf(command: Command, prefix = ''): Array<{ path: string; command: Command }> {
  return command.commands.flatMap((sub) => {
    const path = `${prefix}${sub.name()}`;
    return [{ path, command: sub }, ...commandsOf(sub, `${path} `)];
  });
}

/**
 * The lines of the page that name command `path`: a code span that is `hookpm <path>` or
 * `<path>`, alone or followed by its arguments (the second of "`link [agent]` / `unlink <agent>`"
 * included).
 */
function linesNaming(path: string): string[] {
  const escaped = path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const span = new RegExp('`(?:hookpm )?' + escaped + '(?:[ `])');
  return DOC.split('\n').filter((line) => span.test(line));
}

describe('docs/reference/commands.md: the options of every command', () => {
  it('names each option of each command on a line naming that command', () => {
    const missing: string[] = [];
    for (const { path, command } of commandsOf(buildProgram())) {
      const lines = linesNaming(path);
      for (const option of command.options) {
        if (option.hidden || option.long === undefined) continue;
        const flag = new RegExp(`[\\s\`(\\[/]${option.long}(?![\\w-])`);
        if (!lines.some((line) => flag.test(line))) missing.push(`${path} ${option.long}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('names the global options in its conventions', () => {
    const conventions = DOC.split(/^## /m).find((s) => s.startsWith('Conventions')) ?? '';
    const missing = buildProgram()
      .options.filter((option) => !option.hidden && option.long !== '--version')
      .map((option) => option.long ?? '')
      .filter((long) => !conventions.includes(`\`${long}`) && !conventions.includes(`/${long}\``));
    expect(missing).toEqual([]);
  });
});
