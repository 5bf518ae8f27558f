/**
 * schemaVersion: every `--json` document starts with `"schemaVersion": 1`, is an object, and
 * docs/reference/cli-json.md names every field it prints (top level, and the keys of the objects in its
 * lists, lists inside those included), so a field added without documenting it fails here; and
 * every command has a section. Runs the built CLI against the built-in `examples` registry, a
 * local marketplace, a plugin directory and a project directory, each test in a temporary home of
 * its own.
 */
import { spawn } from 'node:child_process';
import { cp, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/main.js';
import { BIN, ensureBuilt, runBin } from '../helpers/built-bin.js';
import { makeTempHome, type TempHome } from '../helpers/temp-home.js';
import { useBubblewrap } from '../helpers/bubblewrap.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FIXTURES = join(ROOT, 'registry-fixtures', 'plugins');
const GUARD = join(FIXTURES, 'guard');
const BASH_PAYLOAD = '{"tool_name":"Bash","tool_input":{"command":"ls"}}';

let doc: string;
const homes: TempHome[] = [];

beforeAll(async () => {
  ensureBuilt();
  doc = await readFile(join(ROOT, 'docs', 'reference', 'cli-json.md'), 'utf8');
}, 120_000);

afterAll(async () => {
  await Promise.all(homes.map((home) => home.cleanup()));
});

/** A temporary home; the agents' own home variables point into it too, so `link` writes there. */
async function newHome(): Promise<TempHome> {
  const home = await makeTempHome('hookpm-cli-json-');
  home.env['CODEX_HOME'] = join(home.dir, '.codex');
  home.env['GEMINI_CLI_HOME'] = home.dir;
  homes.push(home);
  return home;
}

/** The `## <title>` lines of the doc, without the rules section. */
function sectionTitles(): string[] {
  return [...doc.matchAll(/^## (.+)$/gm)]
    .map((m) => (m[1] ?? '').trim())
    .filter((title) => title !== 'Rules for every document');
}

/** The words inside backticks of the doc's `## <title>` section. */
function documentedWords(title: string): Set<string> {
  const section = doc.split(/^## /m).find((s) => s.split('\n', 1)[0]?.trim() === title);
  if (section === undefined)
    throw new Error(`docs/reference/cli-json.md has no section "## ${title}"`);
  const words = new Set<string>();
  for (const [, code] of section.matchAll(/`([^`]+)`/g))
    for (const word of (code ?? '').split(/[^A-Za-z0-9_]+/)) if (word !== '') words.add(word);
  return words;
}

interface Case {
  section: string;
  args: string[];
  stdin?: string;
  /** The working directory, relative to the home; default the home. */
  cwd?: string;
  /** The exit code when it is neither 0 nor (for an error document) 1. */
  code?: number;
}

/** Runs `hookpm <args> --json` and checks the document's frame: an object, schemaVersion 1 first. */
async function json(home: TempHome, c: Omit<Case, 'section'>): Promise<Record<string, unknown>> {
  const run = await runBin([...c.args, '--json'], {
    env: home.env,
    cwd: c.cwd === undefined ? home.dir : join(home.dir, c.cwd),
    ...(c.stdin === undefined ? {} : { stdin: c.stdin }),
  });
  const value = JSON.parse(run.stdout) as Record<string, unknown>;
  expect(run.code, `${c.args.join(' ')}: ${run.stdout}${run.stderr}`).toBe(
    c.code ?? ('error' in value ? 1 : 0),
  );
  expectFrame(value, run.stdout);
  return value;
}

function expectFrame(value: unknown, text: string): void {
  expect(typeof value === 'object' && value !== null && !Array.isArray(value), text).toBe(true);
  expect(Object.keys(value as object)[0], text).toBe('schemaVersion');
  expect((value as Record<string, unknown>)['schemaVersion'], text).toBe(1);
}

/**
 * The field names a document prints: its own keys, and those of every object in a list (and in
 * the lists of those objects). Objects that are not list items are maps or documented inline.
 */
function fieldNames(value: Record<string, unknown>): Set<string> {
  const keys = new Set(Object.keys(value));
  const visitList = (list: unknown[]): void => {
    for (const item of list) {
      if (typeof item !== 'object' || item === null || Array.isArray(item)) continue;
      for (const [key, field] of Object.entries(item)) {
        keys.add(key);
        if (Array.isArray(field)) visitList(field);
      }
    }
  };
  for (const field of Object.values(value)) if (Array.isArray(field)) visitList(field);
  return keys;
}

function expectDocumented(section: string, value: Record<string, unknown>): void {
  const words = documentedWords(section);
  const missing = [...fieldNames(value)].filter((key) => !words.has(key));
  expect(missing, `fields missing from docs/reference/cli-json.md "## ${section}"`).toEqual([]);
}

/** Runs the cases in order: later ones see what earlier ones did. */
async function runCases(home: TempHome, cases: readonly Case[]): Promise<void> {
  for (const { section, ...c } of cases) expectDocumented(section, await json(home, c));
}

const USER_CASES: readonly Case[] = [
  { section: 'list', args: ['list'] },
  { section: 'search', args: ['search', 'guard'] },
  { section: 'info', args: ['info', 'guard@examples'] },
  { section: 'review', args: ['review', 'guard@examples'] },
  { section: 'install', args: ['install', 'audit-log@examples', '--dry-run'] },
  { section: 'install', args: ['install', 'guard@examples@1.0.0', '--yes'] },
  { section: 'list', args: ['list'] },
  { section: 'info', args: ['info', 'guard@examples'] },
  { section: 'outdated', args: ['outdated'], code: 1 }, // guard 1.0.0 has a newer version
  { section: 'update', args: ['update', '--yes'] },
  { section: 'rollback', args: ['rollback', 'guard@examples', '--offline'] },
  { section: 'update', args: ['update', '--yes'] },
  { section: 'hooks', args: ['hooks'] },
  { section: 'run', args: ['run', 'Stop', '--payload', '-'], stdin: '{}' },
  { section: 'validate', args: ['validate', GUARD] },
  { section: 'doctor', args: ['doctor'] },
  { section: 'policy', args: ['policy'] },
  { section: 'config', args: ['config', 'set', 'updates.minimumReleaseAgeDays', '0'] },
  { section: 'reload', args: ['reload', '--all'] },
  { section: 'enable, disable', args: ['disable', 'guard@examples'] },
  { section: 'enable, disable', args: ['enable', 'guard@examples', '--yes'] },
  { section: 'link, unlink', args: ['link'] },
  { section: 'link, unlink', args: ['link', 'claude'] },
  { section: 'link, unlink', args: ['link', 'codex'] },
  { section: 'link, unlink', args: ['link', 'gemini'] },
  { section: 'link, unlink', args: ['link'] },
  { section: 'link, unlink', args: ['unlink', 'claude'] },
  { section: 'trust, untrust', args: ['trust', '.'] },
  { section: 'trust, untrust', args: ['untrust', '.'] },
  { section: 'registry', args: ['registry', 'list'] },
  { section: 'registry', args: ['registry', 'update'] },
  { section: 'registry', args: ['registry', 'build', FIXTURES, '--out', 'built'] },
  { section: 'registry', args: ['registry', 'add', 'mine', join(ROOT, 'registry-fixtures')] },
  { section: 'registry', args: ['registry', 'remove', 'mine'] },
  { section: 'pack', args: ['pack', GUARD, '--out', 'packed'] },
  { section: 'uninstall', args: ['uninstall', 'guard@examples', '--dry-run'] },
  { section: 'completion', args: ['completion', 'bash'] },
  { section: 'error', args: ['info', 'no-such-plugin@examples'] },
];

const PENDING_CASES: readonly Case[] = [
  { section: 'install', args: ['install', 'guard@examples', '--no-enable'] },
];

// Run in a project directory, `proj` below the home.
const PROJECT_CASES: readonly Case[] = [
  {
    section: 'project install, update, uninstall',
    args: ['install', '--project', 'audit-log@examples', '--yes'],
  },
  { section: 'project install, update, uninstall', args: ['install', '--yes'] },
  { section: 'list --project', args: ['list', '--project'] },
  { section: 'project install, update, uninstall', args: ['update', '--project'] },
  { section: 'ci', args: ['ci', '--yes'] },
  { section: 'outdated', args: ['outdated', '--project'] },
  {
    section: 'project install, update, uninstall',
    args: ['uninstall', '--project', 'audit-log@examples'],
  },
].map((c) => ({ ...c, cwd: 'proj' }));

const AUTHORING_CASES: readonly Case[] = [
  { section: 'init', args: ['init', 'mine'] },
  { section: 'test', args: ['test', 'mine', 'PreToolUse'] },
  { section: 'install', args: ['install', 'guard@examples', '--yes'] },
  { section: 'run', args: ['run', 'PreToolUse', '--payload', BASH_PAYLOAD] },
  { section: 'log', args: ['log'] },
  { section: 'log', args: ['log', '--plugin', 'guard', '--event', 'PreToolUse'] },
  { section: 'stats', args: ['stats'] },
  { section: 'stats', args: ['stats', '--since', '1h'] },
];

// guard declares capabilities: its handlers run under bubblewrap.
useBubblewrap();

describe('docs/reference/cli-json.md and schemaVersion (schemaVersion)', () => {
  it('user-wide commands: each --json document is an object whose first key is schemaVersion 1, with every field documented', async () => {
    const home = await newHome();
    await runCases(home, USER_CASES);
    const hooks = await json(home, { args: ['hooks'] });
    const [first] = hooks['handlers'] as Array<{ key: string }>;
    for (const verb of ['disable', 'enable'])
      expectDocumented(
        'enable, disable',
        await json(home, { args: [verb, 'guard@examples', '--hook', first?.key ?? ''] }),
      );
    expect((await stat(join(home.dir, 'packed'))).isDirectory()).toBe(true);
    // registry serve --json: one document once it listens, then it serves until interrupted.
    const served = await serveDocument(home, ['registry', 'serve', 'built']);
    expectDocumented('registry', served);
    expect(served['url']).toBe(`http://127.0.0.1:${String(served['port'])}/`);
    // completion --json carries the same script it prints without --json.
    const script = await runBin(['completion', 'zsh'], { env: home.env, cwd: home.dir });
    expect(await json(home, { args: ['completion', 'zsh'] })).toEqual({
      schemaVersion: 1,
      shell: 'zsh',
      script: script.stdout,
    });
  }, 240_000);

  it('list and info report installedAt and updatedAt: an update keeps installedAt and moves updatedAt', async () => {
    const home = await newHome();
    await json(home, { args: ['install', 'guard@examples@1.0.0', '--yes'] });
    await json(home, { args: ['update', '--yes'] });
    const list = await json(home, { args: ['list'] });
    const [guard] = list['plugins'] as Array<Record<string, string>>;
    expect(guard?.['version']).toBe('1.3.0');
    const installedAt = Date.parse(guard?.['installedAt'] ?? '');
    const updatedAt = Date.parse(guard?.['updatedAt'] ?? '');
    expect(Number.isNaN(installedAt)).toBe(false);
    expect(updatedAt).toBeGreaterThan(installedAt);
    const info = await json(home, { args: ['info', 'guard@examples'] });
    const installed = info['installed'] as Record<string, string>;
    expect(installed['installedAt']).toBe(guard?.['installedAt']);
    expect(installed['updatedAt']).toBe(guard?.['updatedAt']);
  }, 120_000);

  it('an install waiting for consent carries `pending`; a marketplace lists its `excluded` entries', async () => {
    const home = await newHome();
    await json(home, { args: ['install', 'guard@examples@1.0.0', '--yes'] });
    // 1.3.0 changes the hooks: with --no-enable it is installed beside 1.0.0, waiting for consent.
    const [install] = PENDING_CASES;
    const waiting = await json(home, install!);
    expectDocumented(install!.section, waiting);
    const [entry] = waiting['installed'] as Array<Record<string, unknown>>;
    expect(entry).toMatchObject({ status: 'pending', version: '1.0.0', pending: '1.3.0' });
    const listed = await json(home, { args: ['list'] });
    expect((listed['plugins'] as Array<Record<string, unknown>>)[0]?.['pending']).toBe('1.3.0');

    const market = join(home.dir, 'market');
    await mkdir(join(market, '.claude-plugin'), { recursive: true });
    await cp(GUARD, join(market, 'plugins', 'guard'), { recursive: true });
    await writeFile(
      join(market, '.claude-plugin', 'marketplace.json'),
      JSON.stringify({
        name: 'market',
        owner: { name: 'test' },
        plugins: [
          { name: 'guard', source: './plugins/guard' },
          { name: 'gone', source: './plugins/gone' },
        ],
      }),
    );
    await runCases(home, [{ section: 'registry', args: ['registry', 'add', 'market', market] }]);
    for (const args of [
      ['registry', 'list'],
      ['registry', 'update', 'market'],
    ]) {
      const value = await json(home, { args });
      expectDocumented('registry', value);
      const registries = value['registries'] as Array<{ name: string; excluded: string[] }>;
      const excluded = registries.find((r) => r.name === 'market')?.excluded ?? [];
      expect(excluded, args.join(' ')).toHaveLength(1);
      expect(excluded[0]).toContain('gone');
    }
  }, 120_000);

  it('--json errors carry `suggestions` (did you mean): the names the hint offers, or none', async () => {
    const home = await newHome();
    const cases: Array<{ args: string[]; code: number; suggestions: string[] }> = [
      { args: ['instal'], code: 2, suggestions: ['install'] },
      { args: ['info', 'gaurd@examples'], code: 1, suggestions: ['guard'] },
      { args: ['install', 'Guard'], code: 1, suggestions: ['guard'] },
      { args: ['run', 'Stopp'], code: 2, suggestions: ['Stop'] },
      { args: ['search', '--event', 'stop'], code: 2, suggestions: ['Stop'] },
      { args: ['test', GUARD, 'pretooluse'], code: 2, suggestions: ['PreToolUse'] },
      { args: ['init', 'x', '--event', 'Stp'], code: 2, suggestions: ['Stop'] },
      { args: ['registry', 'remove', 'exampels'], code: 1, suggestions: ['examples'] },
      { args: ['info', 'no-such-plugin@examples'], code: 1, suggestions: [] },
    ];
    for (const { args, code, suggestions } of cases) {
      const value = await json(home, { args, code });
      expectDocumented('error', value);
      const error = value['error'] as { hint: string | null; suggestions: string[] };
      expect(error.suggestions, args.join(' ')).toEqual(suggestions);
      for (const name of suggestions) expect(error.hint, args.join(' ')).toContain(name);
    }
  }, 120_000);

  it('project commands: install, list, update, uninstall --project, ci and outdated --project', async () => {
    const home = await newHome();
    // A `.git` directory makes `proj` the project root (engine.md S2).
    await mkdir(join(home.dir, 'proj', '.git'), { recursive: true });
    await runCases(home, PROJECT_CASES);
    const list = await json(home, { args: ['list', '--project'], cwd: 'proj' });
    expect(list['plugins']).toEqual([]);
  }, 120_000);

  it('plugin authoring and the decision log: init, test, log, log --follow, stats', async () => {
    const home = await newHome();
    await runCases(home, AUTHORING_CASES);
    const log = await json(home, { args: ['log'] });
    expect((log['entries'] as unknown[]).length).toBe(1);

    // --follow --json: one JSON object per line, schemaVersion first, fields as `log` entries.
    const lines = await followLines(home, () =>
      json(home, { args: ['run', 'PreToolUse', '--payload', BASH_PAYLOAD] }),
    );
    for (const line of lines) {
      const entry = JSON.parse(line) as Record<string, unknown>;
      expectFrame(entry, line);
      const { schemaVersion: _version, ...fields } = entry;
      expectDocumented('log', { entries: [fields] });
    }
  }, 120_000);

  it('every command but session and wire (their own protocols) has a section, and every section is run', () => {
    const words = new Set(sectionTitles().flatMap((title) => title.split(/[\s,]+/)));
    const commands = buildProgram()
      .commands.map((c) => c.name())
      .filter((name) => name !== 'session' && name !== 'wire');
    expect(commands.filter((name) => !words.has(name))).toEqual([]);
    const run = new Set(
      [...USER_CASES, ...PROJECT_CASES, ...AUTHORING_CASES, ...PENDING_CASES].map((c) => c.section),
    );
    expect(sectionTitles().filter((title) => !run.has(title))).toEqual([]);
  });
});

/**
 * Starts `hookpm log --follow --json`, calls `dispatch` until a line comes (the follower starts at
 * the log's end, so the first dispatch may land before it looks), then interrupts it (SIGINT, as
 * Ctrl+C) and returns its non-empty lines.
 */
async function followLines(home: TempHome, dispatch: () => Promise<unknown>): Promise<string[]> {
  const child = spawn(process.execPath, [BIN, 'log', '--follow', '--json'], {
    cwd: home.dir,
    env: home.env,
  });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
  try {
    for (let attempt = 0; attempt < 20 && !stdout.includes('\n'); attempt += 1) {
      await dispatch();
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  } finally {
    child.kill('SIGINT');
  }
  expect(await closed).toBe(0);
  const lines = stdout.split('\n').filter((line) => line !== '');
  expect(lines.length).toBeGreaterThan(0);
  return lines;
}

/** Starts `hookpm <args> --json`, waits for its one document, then interrupts it (SIGINT). */
async function serveDocument(home: TempHome, args: string[]): Promise<Record<string, unknown>> {
  const child = spawn(process.execPath, [BIN, ...args, '--json'], { cwd: home.dir, env: home.env });
  let stdout = '';
  const parsed = new Promise<Record<string, unknown>>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      try {
        resolve(JSON.parse(stdout) as Record<string, unknown>);
      } catch {
        // Not the whole document yet.
      }
    });
    child.on('close', () => reject(new Error(`exited before its document: ${stdout}`)));
  });
  const closed = new Promise<unknown>((resolve) => child.on('close', resolve));
  try {
    const value = await parsed;
    expectFrame(value, stdout);
    return value;
  } finally {
    child.kill('SIGINT');
    await closed;
  }
}
