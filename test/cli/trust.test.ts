import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, readFile, rename, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { promptTrust } from '../../src/cli/prompt/prompt-trust.js';
import type { ProjectHooksSummary } from '../../src/ops/run/project-hooks-summary.js';
import type { TrustAnswer } from '../../src/ops/run/resolve-trust.js';
import { INSTALL_TIMEOUT_MS, requireTool, SCRIPT } from '../helpers/system-package.js';
import { BIN } from '../helpers/built-bin.js';
import { useBinWorkspace } from '../helpers/bin-workspace.js';

const ws = useBinWorkspace('cli-trust');
let script: string;

beforeAll(async () => {
  script = await requireTool({ ...SCRIPT, neededBy: 'the terminal tests' });
}, INSTALL_TIMEOUT_MS);
beforeEach(() => mkdir(join(ws.repo, 'sub'), { recursive: true }));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function hookpm(args: string[], cwd = ws.repo): Run {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    env: ws.env(),
    encoding: 'utf8',
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function hookpmAsync(args: string[]): Promise<Run> {
  return ws.hookpm(args, { cwd: ws.dir });
}

const storeFile = (): string => join(ws.home, '.deepagents', '.state', 'hooks_trust.json');
const storedRoots = async (): Promise<string[]> =>
  Object.keys(
    (JSON.parse(await readFile(storeFile(), 'utf8')) as { projects: object }).projects,
  ).sort();

async function put(file: string, content: string): Promise<void> {
  await mkdir(join(file, '..'), { recursive: true });
  await writeFile(file, content);
}
const doc = (command: string): string =>
  JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command }] }] } });

describe('hookpm trust / untrust', () => {
  it('T1: `hookpm trust <dir>` stores the root (mode 0600 in a 0700 directory) and --json prints {root, trusted}', async () => {
    const run = hookpm(['trust', ws.repo, '--json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ root: ws.repo, trusted: true });
    expect(await storedRoots()).toEqual([ws.repo]);
    expect((await stat(storeFile())).mode & 0o777).toBe(0o600);
    expect((await stat(join(storeFile(), '..'))).mode & 0o777).toBe(0o700);
  });

  it('T2: trusting a symlinked path trusts its target, and a subdirectory (via --cwd) resolves to its root', async () => {
    const link = join(ws.dir, `link${ws.n}`);
    await symlink(ws.repo, link);
    const run = hookpm(['trust', link]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`trusted ${ws.repo}`);
    expect(JSON.parse(hookpm(['trust', '--cwd', join(ws.repo, 'sub'), '--json']).stdout)).toEqual({
      schemaVersion: 1,
      root: ws.repo,
      trusted: true,
      changed: false,
    });
    expect(await storedRoots()).toEqual([ws.repo]);
  });

  it('T2: without [dir] the working directory is used, and `hookpm untrust` removes only that root', async () => {
    const other = join(ws.dir, `other${ws.n}`);
    await mkdir(other);
    expect(hookpm(['trust'], join(ws.repo, 'sub')).code).toBe(0);
    expect(hookpm(['trust', other]).code).toBe(0);
    const run = hookpm(['untrust', '--json'], join(ws.repo, 'sub'));
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      schemaVersion: 1,
      root: ws.repo,
      trusted: false,
      changed: true,
    });
    expect(await storedRoots()).toEqual([other]);
    expect(hookpm(['untrust'], ws.repo).stdout).toContain('was not trusted');
  });

  it('T3: a corrupt store makes `hookpm trust` fail with E_TRUST_STORE naming the file, and its bytes stay identical', async () => {
    await put(storeFile(), '{"version":1,"projects":{"/a":{"trusted_at":');
    const before = await readFile(storeFile());
    const run = hookpm(['trust', ws.repo]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('hookpm: error[E_TRUST_STORE]:');
    expect(run.stderr).toContain(storeFile());
    const json = hookpm(['untrust', ws.repo, '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({
      error: { code: 'E_TRUST_STORE', hint: expect.stringContaining(storeFile()) },
    });
    expect(Buffer.compare(await readFile(storeFile()), before)).toBe(0);
  });

  it('T1: a stored trusted_at is shown escaped and cut, whatever another tool wrote there', async () => {
    const trustedAt = `2026\u001b]52;c;eA==\u0007\u001b[2J${'t'.repeat(100_000)}`;
    await put(
      storeFile(),
      JSON.stringify({ version: 1, projects: { [ws.repo]: { trusted_at: trustedAt } } }),
    );
    const run = hookpm(['trust', ws.repo]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
    expect(run.stdout).toContain(
      `(since 2026\\u001b]52;c;eA==\\u0007\\u001b[2J${'t'.repeat(180)}...)`,
    );
    expect(run.stdout.length).toBeLessThan(2000);
  });

  it('T2: a directory that does not exist is a usage error (exit 2) and creates no store', async () => {
    const run = hookpm(['trust', join(ws.dir, 'missing')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('error[E_USAGE]');
    expect(existsSync(storeFile())).toBe(false);
  });

  it('T2: `hookpm untrust` of a trusted project that was moved away removes its entry, so a directory made at that path later is not trusted', async () => {
    const old = join(ws.dir, `old${ws.n}`);
    await mkdir(join(old, '.git'), { recursive: true });
    expect(hookpm(['trust', old]).code).toBe(0);
    await rename(old, join(ws.dir, `moved${ws.n}`));
    const run = hookpm(['untrust', old, '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      schemaVersion: 1,
      root: old,
      trusted: false,
      changed: true,
    });
    expect(await storedRoots()).toEqual([]);
    expect(hookpm(['untrust', old]).stdout).toContain('was not trusted');
  });

  it('T1: concurrent `hookpm trust` of different directories from separate processes all end up in the store', async () => {
    const roots = [0, 1, 2, 3].map((i) => join(ws.dir, `concurrent${ws.n}-${i}`));
    await Promise.all(roots.map((root) => mkdir(root)));
    const runs = await Promise.all(roots.map((root) => hookpmAsync(['trust', root, '--json'])));
    expect(runs.map((r) => r.code)).toEqual([0, 0, 0, 0]);
    expect(await storedRoots()).toEqual(roots);
    expect(readdirSync(join(storeFile(), '..'))).toEqual(['hooks_trust.json']);
  });
});

describe('hookpm hooks and workspace trust', () => {
  it('T5: headless `hookpm hooks` ignores a stored trust: without --trust-project-hooks the project hooks are not loaded', async () => {
    await put(join(ws.repo, '.deepagents', 'hooks.json'), doc('project-hook'));
    await put(join(ws.home, '.deepagents', 'hooks.json'), doc('user-hook'));
    expect(hookpm(['trust', ws.repo]).code).toBe(0);
    const run = hookpm(['hooks', '--json']);
    expect(run.code).toBe(0);
    const listing = JSON.parse(run.stdout) as {
      handlers: { command: string }[];
      diagnostics: { code: string }[];
    };
    expect(listing.handlers.map((h) => h.command)).toEqual(['user-hook']);
    expect(listing.diagnostics.map((d) => d.code)).toEqual(['project_untrusted']);
    const flagged = JSON.parse(
      hookpm(['hooks', '--json', '--trust-project-hooks']).stdout,
    ) as typeof listing;
    expect(flagged.handlers.map((h) => h.command)).toEqual(['project-hook', 'user-hook']);
  });
});

/**
 * Runs `hookpm <args>` on a real pseudo-terminal (util-linux `script`), typing `keys` once the
 * trust prompt is shown; resolves with everything the terminal showed and the exit code.
 */
function hookpmOnTty(
  args: string[],
  keys: string,
): Promise<{ code: number | null; screen: string }> {
  const command = [process.execPath, BIN, ...args].map((a) => `'${a}'`).join(' ');
  const child = spawn(script, ['-qec', command, '/dev/null'], {
    cwd: ws.repo,
    env: { ...ws.env(), TERM: 'dumb' },
  });
  let screen = '';
  let typed = false;
  child.stdout.on('data', (c: Buffer) => {
    screen += c.toString();
    if (!typed && screen.includes('Choice [1-4]:')) {
      typed = true;
      child.stdin.write(keys);
    }
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, screen })));
}

describe('hookpm hooks on a terminal (T4)', () => {
  beforeEach(async () => {
    await put(join(ws.repo, '.deepagents', 'hooks.json'), doc('project-hook'));
  });

  it('T4: on a TTY an untrusted project file is asked about; Always allow loads it and stores the root', async () => {
    const run = await hookpmOnTty(['hooks'], '2\r');
    expect(run.code).toBe(0);
    expect(run.screen).toContain(
      `This workspace has project hooks: ${join(ws.repo, '.deepagents', 'hooks.json')}`,
    );
    expect(run.screen).toContain('project-hook');
    expect(await storedRoots()).toEqual([ws.repo]);
    const again = await hookpmOnTty(['hooks'], '4\r');
    expect(again.screen).not.toContain('Choice [1-4]:');
    expect(again.screen).toContain('project-hook');
  });

  it('T4: Cancel (here Esc) aborts with E_CANCELLED and exit code 1', async () => {
    const run = await hookpmOnTty(['hooks'], '\u001b');
    expect(run.code).toBe(1);
    expect(run.screen).toContain('error[E_CANCELLED]');
    expect(run.screen).not.toMatch(/snapshot [0-9a-f]{64}/);
  });

  it('T5: with --json nothing is asked even on a TTY', async () => {
    const run = await hookpmOnTty(['hooks', '--json'], '1\r');
    expect(run.code).toBe(0);
    expect(run.screen).not.toContain('Choice [1-4]:');
    expect(run.screen).toContain('project_untrusted');
  });
});

/** Drives the prompt with real streams: `lines` are typed one after another, then input ends if `end`. */
async function answer(
  lines: string[],
  end = false,
): Promise<{ answer: TrustAnswer; shown: string }> {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = '';
  output.on('data', (c: Buffer) => (shown += c.toString()));
  const pending = promptTrust('/work/repo/.deepagents/hooks.json', undefined, { input, output });
  for (const line of lines) input.write(`${line}\n`);
  if (end) input.end();
  return { answer: await pending, shown };
}

describe('the trust prompt', () => {
  it.each([
    ['1', 'once'],
    ['once', 'once'],
    ['2', 'always'],
    ['always', 'always'],
    ['3', 'deny'],
    ['d', 'deny'],
    ['4', 'cancel'],
  ] as const)('T4: the answer %j means %s', async (typed, expected) => {
    expect((await answer([typed])).answer).toBe(expected);
  });

  it('T4: the prompt offers Allow once, Always allow, Deny and Cancel, and asks again on an unknown answer', async () => {
    const { answer: result, shown } = await answer(['maybe', '3']);
    expect(result).toBe('deny');
    expect(shown).toContain('1) Allow once   2) Always allow   3) Deny   4) Cancel');
    expect(shown).toContain('Please answer 1, 2, 3 or 4.');
  });

  it('T4: end of input (Ctrl+D) is Cancel', async () => {
    expect((await answer([], true)).answer).toBe('cancel');
  });

  it('T4: the file path is shown with control characters escaped', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let shown = '';
    output.on('data', (c: Buffer) => (shown += c.toString()));
    const pending = promptTrust('/tmp/evil\u001b[2J\n.deepagents/hooks.json', undefined, {
      input,
      output,
    });
    input.end('4\n');
    expect(await pending).toBe('cancel');
    expect(shown).toContain('/tmp/evil\\u001b[2J\\n.deepagents/hooks.json');
    expect(shown).not.toContain('\u001b');
  });
});

describe('the trust question shows what it would load (T4)', () => {
  const hook = (event: string, command: string, matcher: string | null = null) => ({
    event,
    matcher,
    command,
  });

  async function asked(summary: ProjectHooksSummary, lines: string[]) {
    const input = new PassThrough();
    const output = new PassThrough();
    let shown = '';
    output.on('data', (c: Buffer) => (shown += c.toString()));
    const pending = promptTrust('/r/.deepagents/hooks.json', summary, { input, output });
    for (const line of lines) input.write(`${line}\n`);
    return { answer: await pending, shown };
  }

  it('up to eight hooks are listed, each with its event, matcher and command, escaped', async () => {
    const { answer: result, shown } = await asked(
      {
        status: 'read',
        hooks: [hook('PreToolUse', './check.sh', 'Bash'), hook('Stop', 'echo \u001b[2Jdone')],
      },
      ['3'],
    );
    expect(result).toBe('deny');
    expect(shown).toContain(
      '  PreToolUse (Bash)  ./check.sh\n  Stop               echo \\u001b[2Jdone\n',
    );
    expect(shown).not.toContain('\u001b');
    expect(shown).toContain('1) Allow once   2) Always allow   3) Deny   4) Cancel\n');
    expect(shown).not.toContain('Show them');
  });

  it('more hooks get a count and choice 5, which lists them and asks again', async () => {
    const hooks = Array.from({ length: 9 }, (_, i) =>
      hook(i < 5 ? 'PreToolUse' : 'SessionStart', `run-${i}`),
    );
    const { answer: result, shown } = await asked({ status: 'read', hooks }, ['5', '1']);
    expect(result).toBe('once');
    const [question, after] = shown.split('Choice [1-5]: ');
    expect(question).toContain('It declares 9 hooks on the events PreToolUse, SessionStart;');
    expect(question).toContain('5) Show them');
    expect(question).not.toContain('run-0');
    expect(after).toContain('  PreToolUse    run-0');
    expect(after).toContain('  SessionStart  run-8');
  });

  it('a file that cannot be read now says so; an empty one says it declares no hooks', async () => {
    const unreadable = await asked({ status: 'unreadable', reason: 'invalid JSON at 1:2' }, ['4']);
    expect(unreadable.answer).toBe('cancel');
    expect(unreadable.shown).toContain('It cannot be read now (invalid JSON at 1:2)');
    expect((await asked({ status: 'read', hooks: [] }, ['3'])).shown).toContain(
      'It declares no hooks.',
    );
  });
});
