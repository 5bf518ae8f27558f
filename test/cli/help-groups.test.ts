/**
 * `hookpm --help` lists the commands in groups (install and manage, inspect,
 * run, publish, admin), and npm-style aliases run the same commands (`i`, `ls`, `rm`, `up`, ...).
 */
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/main.js';
import { ALIASES, HELP_GROUPS } from '../../src/cli/help-groups.js';
import { runBin, type BinRun } from '../helpers/built-bin.js';
import { useBuiltHome } from '../helpers/registry-home.js';

const home = useBuiltHome('hookpm-help-');

const hookpm = (...args: string[]): Promise<BinRun> =>
  runBin(args, { env: home.env, cwd: home.dir });

async function ok(...args: string[]): Promise<BinRun> {
  const run = await hookpm(...args);
  expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(0);
  return run;
}

/** The help text as {heading: command names}, in order. */
function groupsOf(help: string): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  let current: string[] | null = null;
  for (const line of help.split('\n')) {
    const heading = /^(\S.*):$/.exec(line);
    if (heading !== null) {
      current = [];
      groups.set(heading[1] ?? '', current);
    } else if (/^ {2}[a-z]/.test(line) && current !== null) {
      current.push((line.trim().split(/[\s|]/)[0] ?? '').trim());
    } else if (line === '') current = null;
  }
  return groups;
}

describe('help groups', () => {
  it('every top-level command has one of the five groups', () => {
    const program = buildProgram();
    const headings = HELP_GROUPS.map((g) => `${g}:`);
    for (const command of program.commands)
      expect(headings, `${command.name()} has no help group`).toContain(command.helpGroup());
  });

  it('`hookpm --help` prints the groups in order, each command under its own', async () => {
    const groups = groupsOf((await ok('--help')).stdout);
    const commandGroups = [...groups.keys()].filter((k) => k !== 'Options' && k !== 'Usage');
    expect(commandGroups.filter((k) => k !== 'Example')).toEqual([...HELP_GROUPS]);
    expect(groups.get('Install and manage')).toEqual(
      expect.arrayContaining(['install', 'uninstall', 'update', 'enable', 'disable', 'list']),
    );
    expect(groups.get('Install and manage')?.[0]).toBe('install');
    expect(groups.get('Inspect')).toEqual(
      expect.arrayContaining(['search', 'info', 'review', 'hooks']),
    );
    expect(groups.get('Run')).toEqual(expect.arrayContaining(['run', 'session', 'link', 'wire']));
    expect(groups.get('Publish')).toEqual(expect.arrayContaining(['validate', 'pack']));
    expect(groups.get('Admin')).toEqual(expect.arrayContaining(['registry', 'doctor', 'help']));
  });

  it('the help shows each alias beside its command', async () => {
    const help = (await ok('--help')).stdout;
    expect(help).toMatch(/^ {2}install\|i /m);
    expect(help).toMatch(/^ {2}list\|ls /m);
    expect(help).toMatch(/^ {2}uninstall\|rm /m);
    expect((await ok('help', 'rm')).stdout).toMatch(/^Usage: hookpm uninstall\|rm /);
  });
});

describe('npm-style aliases', () => {
  it('`i`, `ls`, `up`, `s`, `view` and `rm` run install, list, update, search, info and uninstall', async () => {
    expect(ALIASES.install).toContain('i');
    const installed = await ok('i', 'guard@examples', '--yes');
    expect(installed.stdout).toMatch(/^installed guard@examples 1\.3\.0 \(enabled\)/);
    expect(JSON.parse((await ok('ls', '--json')).stdout)).toEqual(
      JSON.parse((await ok('list', '--json')).stdout),
    );
    expect((await ok('ls')).stdout).toMatch(/^ID +VERSION/);
    expect((await ok('up', '--json')).stdout).toBe((await ok('update', '--json')).stdout);
    expect((await ok('s', 'guard')).stdout).toContain('guard@examples');
    expect((await ok('view', 'guard@examples', '--json')).stdout).toBe(
      (await ok('info', 'guard@examples', '--json')).stdout,
    );
    for (const alias of ['rm', 'remove', 'un']) {
      await ok('install', 'guard@examples', '--yes');
      await ok(alias, 'guard@examples', '--yes');
      expect(JSON.parse((await ok('list', '--json')).stdout)).toMatchObject({ plugins: [] });
    }
  });

  it('`registry ls` is `registry list`', async () => {
    expect((await ok('registry', 'ls', '--json')).stdout).toBe(
      (await ok('registry', 'list', '--json')).stdout,
    );
  });
});
