/**
 * `hookpm completion bash|zsh|fish` prints a completion script, and bash really
 * completes with it: the script is sourced into a real bash, COMP_WORDS/COMP_CWORD set as
 * readline sets them, and the completion function asks the built hookpm (on PATH) for the
 * candidates: commands, options, events, agents, shells and installed plugin names. zsh and fish
 * check their scripts too: the shells are required (installed on first use, or the test fails with
 * the command; test/helpers/system-package.ts), never skipped.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ensureBuilt, runBin, type BinRun } from '../helpers/built-bin.js';
import { BASH, FISH, INSTALL_TIMEOUT_MS, requireTool, ZSH } from '../helpers/system-package.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';

let home: TempHome;
let env: Record<string, string>;
let bash: string;

beforeAll(async () => {
  bash = await requireTool({ ...BASH, neededBy: 'the completion tests' });
  ensureBuilt();
  home = await makeTempHome('hookpm-completion-');
  const bin = join(home.dir, 'bin');
  await mkdir(bin);
  await symlink(BIN, join(bin, 'hookpm'));
  env = { ...home.env, PATH: `${bin}:${process.env.PATH ?? ''}` };
  const installed = await hookpm('install', 'guard@examples', '--yes');
  expect(installed.code, installed.stderr).toBe(0);
}, INSTALL_TIMEOUT_MS);
afterAll(() => home.cleanup());

const hookpm = (...args: string[]): Promise<BinRun> =>
  runBin(args, { env: home.env, cwd: home.dir });

/** What bash's completion of `line` (the cursor at its end) offers, with the script loaded. */
function bashCompletes(line: string): string[] {
  const words = line.split(' ');
  const script = [
    'source <(hookpm completion bash)',
    `COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')})`,
    `COMP_CWORD=${words.length - 1}`,
    `COMP_LINE='${line}'`,
    `COMP_POINT=${line.length}`,
    // the function `complete -F` registered for hookpm
    'fn=$(complete -p hookpm | sed -E "s/.*-F ([^ ]+).*/\\1/")',
    '"$fn" hookpm "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"',
    'printf "%s\\n" "${COMPREPLY[@]}"',
  ].join('\n');
  const out = execFileSync(bash, ['-c', script], { env, cwd: home.dir, encoding: 'utf8' });
  return out.split('\n').filter((l) => l !== '');
}

describe('`hookpm completion bash` in a real bash', () => {
  it('registers a completion function for hookpm', () => {
    const out = execFileSync(bash, ['-c', 'source <(hookpm completion bash); complete -p hookpm'], {
      env,
      encoding: 'utf8',
    });
    expect(out).toMatch(/^complete .*-F \S+ hookpm$/m);
  });

  it('completes command names from a prefix', () => {
    expect(bashCompletes('hookpm ins')).toEqual(['install']);
    expect(bashCompletes('hookpm un')).toEqual(['uninstall', 'untrust', 'unlink']);
    expect(bashCompletes('hookpm ')).toEqual(
      expect.arrayContaining(['install', 'search', 'doctor', 'completion']),
    );
  });

  it("completes a command's options and the global ones", () => {
    const options = bashCompletes('hookpm install --d');
    expect(options).toEqual(['--dry-run']);
    expect(bashCompletes('hookpm list --j')).toEqual(['--json']);
  });

  it('completes event names for `run` and for `--event`', () => {
    expect(bashCompletes('hookpm run Pre')).toEqual(['PreToolUse', 'PreCompact']);
    expect(bashCompletes('hookpm search --event Sess')).toEqual(['SessionStart', 'SessionEnd']);
  });

  it('completes installed plugin names for uninstall, update, enable, disable, review and info, and through aliases', () => {
    for (const command of ['uninstall', 'update', 'disable', 'review', 'info', 'rm'])
      expect(bashCompletes(`hookpm ${command} gu`), command).toEqual(['guard']);
    expect(bashCompletes('hookpm uninstall x')).toEqual([]);
  });

  it('completes subcommands, agents, shells and `help <command>`', () => {
    expect(bashCompletes('hookpm registry a')).toEqual(['add']);
    expect(bashCompletes('hookpm link cl')).toEqual(['claude']);
    expect(bashCompletes('hookpm completion z')).toEqual(['zsh']);
    expect(bashCompletes('hookpm help rev')).toEqual(['review']);
  });
});

describe('`hookpm completion <shell>`', () => {
  it.each(['bash', 'zsh', 'fish'])(
    '%s: prints a script that asks `hookpm completion --list`',
    async (shell) => {
      const run = await hookpm('completion', shell);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('hookpm completion --list --');
    },
  );

  it.each([
    ['zsh', ZSH, '-n'],
    ['fish', FISH, '--no-execute'],
    ['bash', BASH, '-n'],
  ] as const)(
    'the %s script is valid in that shell (parsed by the real shell)',
    async (_name, tool, check) => {
      const shell = await requireTool({ ...tool, neededBy: 'the completion tests' });
      const file = join(home.dir, `completion.${tool.command}`);
      await writeFile(file, (await hookpm('completion', tool.command)).stdout);
      const parsed = spawnSync(shell, [check, file], { encoding: 'utf8' });
      expect(parsed.error).toBeUndefined();
      expect(parsed.status, parsed.stderr).toBe(0);
    },
    INSTALL_TIMEOUT_MS,
  );

  it(
    'the zsh function offers the candidates for words/CURRENT, and files where there are none',
    async () => {
      const zsh = await requireTool({ ...ZSH, neededBy: 'the completion tests' });
      // Stand-ins for compsys's compadd, _files and compdef, which need an interactive zsh: they
      // print what the function hands them. words and CURRENT are set as compsys sets them.
      const script = [
        'compdef() { :; }',
        'compadd() { [[ $1 == -a ]] && print -l -- ${(P)2}; }',
        '_files() { print FILES; }',
        'source <(hookpm completion zsh)',
        'words=(hookpm ins); CURRENT=2; _hookpm',
        'words=(hookpm rm gu); CURRENT=3; _hookpm',
        'words=(hookpm install ./); CURRENT=3; _hookpm',
      ].join('\n');
      const out = execFileSync(zsh, ['-c', script], { env, cwd: home.dir, encoding: 'utf8' });
      expect(out.split('\n').filter((l) => l !== '')).toEqual(['install', 'guard', 'FILES']);
    },
    INSTALL_TIMEOUT_MS,
  );

  it(
    'fish really completes with its script (`complete -C`)',
    async () => {
      const fish = await requireTool({ ...FISH, neededBy: 'the completion tests' });
      const out = execFileSync(
        fish,
        [
          '-c',
          'hookpm completion fish | source; complete -C "hookpm ins"; complete -C "hookpm rm gu"',
        ],
        { env, cwd: home.dir, encoding: 'utf8' },
      );
      expect(out.split('\n').filter((l) => l !== '')).toEqual(['install', 'guard']);
    },
    INSTALL_TIMEOUT_MS,
  );

  it('an unknown shell is a usage error (exit 2) naming the shells', async () => {
    const run = await hookpm('completion', 'tcsh');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('bash, zsh, fish');
  });

  it('`--list` is not in the help', async () => {
    expect((await hookpm('help', 'completion')).stdout).not.toContain('--list');
  });
});
